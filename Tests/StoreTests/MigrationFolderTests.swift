import Foundation
import SQLiteStoreCore
import Testing

extension TemporaryDirectory {
    /// Writes `files` (name → text) into the folder `folder` and returns its path.
    @discardableResult
    func writeMigrations(_ files: [String: String], folder: String = "Migrations") throws -> String {
        let folderURL = url.appendingPathComponent(folder, isDirectory: true)
        try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: folderURL.appendingPathComponent(name))
        }
        return folderURL.path
    }
}

/// The repository's example migrations, which the demo and the tests use.
let exampleMigrationsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Migrations").path

/// Reading a folder of `NNNN_name.sql` files.
@Suite("Migration folder")
struct MigrationFolderTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test("The example folder holds the to-do schema in version order, every migration reversible")
    func exampleFolder() throws {
        let migrator = try Migrator(folder: exampleMigrationsFolder)
        #expect(migrator.migrations.map(\.version) == [1, 2, 3, 4, 5, 6])
        #expect(migrator.migrations.allSatisfy { $0.isReversible && $0.usesTransaction && $0.warnings.isEmpty })
        #expect(migrator.migrations[2].name == "rebuild_list")
    }

    @Test("Leading zeros are allowed; hidden entries, folders and files with other extensions are ignored")
    func fileSelection() throws {
        let folder = try directory.writeMigrations([
            "7_seven.sql": "CREATE TABLE seven(x);",
            "00010_ten.sql": "CREATE TABLE ten(x);",
            "README.md": "not a migration",
            ".0002_hidden.sql": "not a migration",
        ])
        try FileManager.default.createDirectory(atPath: folder + "/0003_folder", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/.0004_hidden.sql", withIntermediateDirectories: true)
        let migrator = try Migrator(folder: folder)
        #expect(migrator.migrations.map(\.version) == [7, 10])
        #expect(migrator.migrations.map(\.path) == [folder + "/7_seven.sql", folder + "/00010_ten.sql"])
    }

    @Test("A folder named like a migration is refused as a folder, not ignored")
    func folderNamedLikeAMigration() throws {
        let folder = try directory.writeMigrations(["0001_a.sql": "SELECT 1;"])
        try FileManager.default.createDirectory(atPath: folder + "/0003_x.sql", withIntermediateDirectories: true)
        #expect {
            try Migrator(folder: folder)
        } throws: { error in
            guard case MigrationError.unreadableFile(let path, let reason) = error else { return false }
            return path == folder + "/0003_x.sql" && reason == "a folder, not a migration file"
        }
    }

    @Test(
        "Malformed file names are refused",
        arguments: [
            "init.sql", "0_zero.sql", "12-dash.sql", "0001_bad-name.sql", "0001_.sql", "0001_upper.SQL", "x1_name.sql",
            "99999999999999999999_huge.sql",
        ])
    func malformedName(fileName: String) throws {
        let folder = try directory.writeMigrations([fileName: "SELECT 1;"])
        #expect {
            try Migrator(folder: folder)
        } throws: { error in
            guard case MigrationError.invalidMigration(let location, _, _) = error else { return false }
            return location == folder + "/" + fileName
        }
    }

    @Test("Two files with the same version are refused")
    func duplicateVersions() throws {
        let folder = try directory.writeMigrations(["1_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 2;"])
        #expect {
            try Migrator(folder: folder)
        } throws: { error in
            guard case MigrationError.duplicateVersion(1, let locations) = error else { return false }
            return Set(locations) == [folder + "/1_a.sql", folder + "/0001_b.sql"]
        }
    }

    @Test(
        "A file that is not UTF-8 text, or holds a NUL byte, is unreadable",
        arguments: [
            [0x53, 0x45, 0xFF, 0xFE, 0xC3], Array("SELECT 1;\0DROP TABLE a;".utf8),
        ] as [[UInt8]])
    func notText(bytes: [UInt8]) throws {
        let folder = try directory.writeMigrations([:])
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/0001_binary.sql"))
        #expect {
            try Migrator(folder: folder)
        } throws: { error in
            guard case MigrationError.unreadableFile(let path, _) = error else { return false }
            return path == folder + "/0001_binary.sql"
        }
    }

    @Test("A missing folder, or a file where the folder should be, is unreadable")
    func missingFolder() throws {
        let file = directory.path("file")
        try Data().write(to: URL(fileURLWithPath: file))
        for path in [directory.path("nowhere"), file] {
            #expect {
                try Migrator(folder: path)
            } throws: { error in
                guard case MigrationError.unreadableFolder(path, _) = error else { return false }
                return true
            }
        }
    }

    @Test("Swift migrations need a positive version, a valid name and a free version")
    func swiftRegistration() throws {
        var migrator = Migrator()
        try migrator.add(Migration(version: 2, name: "two") { _ in })
        try migrator.add(Migration(version: 1, name: "one") { _ in })
        #expect(migrator.migrations.map(\.version) == [1, 2])
        #expect(throws: MigrationError.self) { try migrator.add(Migration(version: 0, name: "zero") { _ in }) }
        #expect(throws: MigrationError.self) { try migrator.add(Migration(version: 3, name: "has space") { _ in }) }
        #expect(throws: MigrationError.self) { try migrator.add(Migration(version: 2, name: "again") { _ in }) }
    }

    @Test("MigrationFileName.make pads the version")
    func fileNames() {
        #expect(MigrationFileName.make(version: 5, name: "add_tags") == "0005_add_tags.sql")
        #expect(MigrationFileName.make(version: 123_456, name: "big", digits: 4) == "123456_big.sql")
        #expect(MigrationFileName.isValidName("add_tags2") && !MigrationFileName.isValidName("émoji") && !MigrationFileName.isValidName(""))
    }
}
