import SwiftDiagnostics

/// What `@StoreModel` reports about a struct it cannot make a model of.
enum ModelDiagnostic: String, DiagnosticMessage {
    case notAStruct
    case missingPrimaryKey
    case twoPrimaryKeys
    case idIsNotTheKey
    case unsupportedKeyType
    case optionalTextKey
    case ignoredKey
    case missingType
    case unsupportedType
    case implicitlyUnwrapped
    case letWithDefault
    case ignoredWithoutDefault

    var message: String {
        switch self {
        case .notAStruct: "@StoreModel applies to a struct: models are values"
        case .missingPrimaryKey: "a @StoreModel needs a primary key: a property named 'id' or one marked @PrimaryKey"
        case .twoPrimaryKeys: "a @StoreModel has one primary key; this is a second"
        case .idIsNotTheKey: "'id' is the primary key of a @StoreModel, but another property is marked @PrimaryKey; rename one of them"
        case .unsupportedKeyType: "a primary key is Int64? (the rowid, assigned on insert), Int64, UUID or String"
        case .optionalTextKey: "a UUID or String primary key cannot be optional: only an Int64? key is assigned by SQLite"
        case .ignoredKey: "the primary key cannot be @StoreIgnored"
        case .missingType: "a stored property of a @StoreModel needs an explicit type"
        case .unsupportedType:
            "this type cannot be stored in a column: use a Codable value type (stored as JSON) or a DatabaseValueConvertible type"
        case .implicitlyUnwrapped: "an implicitly unwrapped optional cannot be stored; use an optional"
        case .letWithDefault: "a 'let' with a default value cannot be read from a row"
        case .ignoredWithoutDefault: "a @StoreIgnored property needs a default value"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "SQLiteStoreMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

/// The fix-its `@StoreModel` offers.
struct ModelFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "SQLiteStoreMacros", id: message) }
}
