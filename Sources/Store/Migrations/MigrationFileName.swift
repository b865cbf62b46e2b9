/// The naming rules of migration files, `NNNN_name.sql`: a positive version with any number
/// of leading zeros, an underscore, a name of ASCII letters, digits and `_`.
public enum MigrationFileName {
    /// The extension of migration files.
    public static let fileExtension = "sql"

    /// Whether `name` is a valid migration name: non-empty ASCII letters, digits and `_`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The file name for `version` and `name`, the version padded with zeros to `digits` digits.
    public static func make(version: Int, name: String, digits: Int = 4) -> String {
        let number = String(version)
        return String(repeating: "0", count: max(0, digits - number.count)) + number + "_" + name + "." + fileExtension
    }

    /// The version and the name of the file called `fileName`.
    ///
    /// - Throws: `MigrationError.invalidMigration` when `fileName` breaks the rules.
    static func parse(_ fileName: String, path: String) throws -> (version: Int, name: String) {
        func invalid(_ reason: String) -> MigrationError {
            .invalidMigration(
                location: path, line: nil,
                reason: "\(reason); migration files are named NNNN_name.sql (NNNN a positive number, name letters, digits and _)")
        }
        let suffix = "." + fileExtension
        guard fileName.hasSuffix(suffix) else { throw invalid("the extension must be \(suffix) in lowercase") }
        let stem = fileName.dropLast(suffix.count)
        guard let underscore = stem.firstIndex(of: "_") else { throw invalid("no _ after the version") }
        let digits = stem[..<underscore]
        let name = String(stem[stem.index(after: underscore)...])
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw invalid("the version \"\(digits)\" is not a number")
        }
        guard let version = Int(digits), version > 0 else { throw invalid("the version must be a positive number that fits 64 bits") }
        guard isValidName(name) else { throw invalid("the name \"\(name)\" must be letters, digits and _") }
        return (version, name)
    }
}
