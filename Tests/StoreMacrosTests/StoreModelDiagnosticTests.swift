import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Each diagnostic of `@StoreModel`, where it points, and what its fix-it writes.
@Suite("@StoreModel diagnostics")
struct StoreModelDiagnosticTests {
    @Test("A model without a primary key: fix-it adds an Int64? rowid")
    func missingPrimaryKey() {
        expectExpansion(
            """
            @StoreModel
            struct Tag {
                var name: String
            }
            """,
            expandsTo: """
                struct Tag {
                    var name: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a @StoreModel needs a primary key: a property named 'id' or one marked @PrimaryKey",
                    line: 2, column: 8, fixIts: [FixItSpec(message: "add 'var id: Int64?', a rowid that SQLite assigns")])
            ], applyingFixIts: ["add 'var id: Int64?', a rowid that SQLite assigns"],
            fixedSource: """
                @StoreModel
                struct Tag {
                    var id: Int64?
                    var name: String
                }
                """)
    }

    @Test("Two primary keys: fix-it removes the second marker")
    func twoPrimaryKeys() {
        expectExpansion(
            """
            @StoreModel
            struct Pair {
                @PrimaryKey var left: String
                @PrimaryKey var right: String
            }
            """,
            expandsTo: """
                struct Pair {
                    var left: String
                    var right: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a @StoreModel has one primary key; this is a second",
                    line: 4, column: 5, fixIts: [FixItSpec(message: "remove the second @PrimaryKey")])
            ], applyingFixIts: ["remove the second @PrimaryKey"],
            fixedSource: """
                @StoreModel
                struct Pair {
                    @PrimaryKey var left: String
                    var right: String
                }
                """)
    }

    @Test("A key of another type: fix-it makes it an Int64? rowid")
    func unsupportedKeyType() {
        expectExpansion(
            """
            @StoreModel
            struct Score {
                var id: Double
            }
            """,
            expandsTo: """
                struct Score {
                    var id: Double
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a primary key is Int64? (the rowid, assigned on insert), Int64, UUID or String",
                    line: 3, column: 13, fixIts: [FixItSpec(message: "use 'Int64?', a rowid that SQLite assigns")])
            ], applyingFixIts: ["use 'Int64?', a rowid that SQLite assigns"],
            fixedSource: """
                @StoreModel
                struct Score {
                    var id: Int64?
                }
                """)
    }

    @Test("An optional UUID key: fix-it drops the optional")
    func optionalUUIDKey() {
        expectExpansion(
            """
            @StoreModel
            struct Session {
                var id: UUID?
            }
            """,
            expandsTo: """
                struct Session {
                    var id: UUID?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a UUID or String primary key cannot be optional: only an Int64? key is assigned by SQLite",
                    line: 3, column: 13, fixIts: [FixItSpec(message: "make it 'UUID'")])
            ], applyingFixIts: ["make it 'UUID'"],
            fixedSource: """
                @StoreModel
                struct Session {
                    var id: UUID
                }
                """)
    }

    @Test("A property without a type: fix-it declares the literal's type")
    func missingType() {
        expectExpansion(
            """
            @StoreModel
            struct Counter {
                var id: Int64?
                var count = 0
            }
            """,
            expandsTo: """
                struct Counter {
                    var id: Int64?
                    var count = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a stored property of a @StoreModel needs an explicit type",
                    line: 4, column: 9, fixIts: [FixItSpec(message: "declare it as 'Int'")])
            ], applyingFixIts: ["declare it as 'Int'"],
            fixedSource: """
                @StoreModel
                struct Counter {
                    var id: Int64?
                    var count: Int = 0
                }
                """)
    }

    @Test("Unsupported types: a closure is refused; an implicitly unwrapped optional's fix-it makes it optional")
    func unsupportedTypes() {
        expectExpansion(
            """
            @StoreModel
            struct Job {
                var id: Int64?
                var action: () -> Void
                var note: String!
            }
            """,
            expandsTo: """
                struct Job {
                    var id: Int64?
                    var action: () -> Void
                    var note: String!
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "this type cannot be stored in a column: use a Codable value type (stored as JSON) or a DatabaseValueConvertible type",
                    line: 4, column: 17),
                DiagnosticSpec(
                    message: "an implicitly unwrapped optional cannot be stored; use an optional",
                    line: 5, column: 15, fixIts: [FixItSpec(message: "use an optional")]),
            ], applyingFixIts: ["use an optional"],
            fixedSource: """
                @StoreModel
                struct Job {
                    var id: Int64?
                    var action: () -> Void
                    var note: String?
                }
                """)
    }

    @Test("A let with a default value cannot be read: fix-it makes it a var")
    func letWithDefault() {
        expectExpansion(
            """
            @StoreModel
            struct Setting {
                var id: Int64?
                let version: Int = 1
            }
            """,
            expandsTo: """
                struct Setting {
                    var id: Int64?
                    let version: Int = 1
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a 'let' with a default value cannot be read from a row",
                    line: 4, column: 5, fixIts: [FixItSpec(message: "use 'var'")])
            ], applyingFixIts: ["use 'var'"],
            fixedSource: """
                @StoreModel
                struct Setting {
                    var id: Int64?
                    var version: Int = 1
                }
                """)
    }

    @Test("Ignored properties need a default; the key cannot be ignored; id must be the key; models are structs")
    func otherDiagnostics() {
        expectExpansion(
            """
            @StoreModel
            struct Draft {
                @StoreIgnored var cache: [String]
                @PrimaryKey var code: String
                var id: Int64
            }
            """,
            expandsTo: """
                struct Draft {
                    var cache: [String]
                    var code: String
                    var id: Int64
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "a @StoreIgnored property needs a default value", line: 3, column: 23),
                DiagnosticSpec(
                    message: "'id' is the primary key of a @StoreModel, but another property is marked @PrimaryKey; rename one of them",
                    line: 5, column: 5),
            ])
        expectExpansion(
            """
            @StoreModel
            class Account {
                var id: Int64?
            }
            """,
            expandsTo: """
                class Account {
                    var id: Int64?
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "@StoreModel applies to a struct: models are values", line: 1, column: 1)
            ])
    }
}
