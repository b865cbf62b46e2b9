import Testing

/// What `@StoreModel` generates for each kind of model; `expectExpansion` compares text.
@Suite("@StoreModel expansion")
struct StoreModelExpansionTests {
    @Test("A rowid model: table, key, columns, decoder, encoder and typed columns")
    func rowidModel() {
        expectExpansion(
            """
            @StoreModel
            struct TodoItem {
                var id: Int64?
                var title: String
                var done: Bool
            }
            """,
            expandsTo: """
                struct TodoItem {
                    var id: Int64?
                    var title: String
                    var done: Bool
                }

                extension TodoItem: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable {
                    static let tableName = "todoItem"
                    static let primaryKeyColumn = "id"
                    static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [
                        SQLiteStoreCore.ModelColumn("id", affinity: .integer, isNullable: true, isPrimaryKey: true),
                        SQLiteStoreCore.ModelColumn("title", affinity: .text),
                        SQLiteStoreCore.ModelColumn("done", affinity: .integer)
                    ]
                    init(row: SQLiteStoreCore.StoreRow) throws {
                        let value0 = try row.decode((Int64?).self, at: 0)
                        let value1 = try row.decode((String).self, at: 1)
                        let value2 = try row.decode((Bool).self, at: 2)
                        self.id = value0
                        self.title = value1
                        self.done = value2
                    }
                    func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                        try bindings.bind(self.id, at: 0)
                        try bindings.bind(self.title, at: 1)
                        try bindings.bind(self.done, at: 2)
                    }
                    struct Columns: Sendable {
                        let id = SQLiteStoreCore.TypedColumn<TodoItem, Int64?>("id")
                        let title = SQLiteStoreCore.TypedColumn<TodoItem, String>("title")
                        let done = SQLiteStoreCore.TypedColumn<TodoItem, Bool>("done")
                    }
                    static let columns = Columns()
                    struct Draft: SQLiteStoreCore.StoreDraft {
                        typealias Model = TodoItem
                        var id: Int64?
                        var title: String
                        var done: Bool
                        init(id: Int64? = nil, title: String, done: Bool) {
                            self.id = id
                            self.title = title
                            self.done = done
                        }
                        func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                            try bindings.bind(self.id, at: 0)
                            try bindings.bind(self.title, at: 1)
                            try bindings.bind(self.done, at: 2)
                        }
                    }
                }
                """)
    }

    @Test("A public model with a UUID key, a table and a column named otherwise, an ignored property, JSON and enum columns")
    func publicUUIDModel() {
        expectExpansion(
            """
            @StoreModel(table: "notes")
            public struct Note {
                public var id: UUID
                @StoreColumn("body_text") public var body: String
                public var tags: [String]
                public var mood: Mood?
                public var stamp: Foundation.Date
                @StoreIgnored public var isSelected = false
                public var wordCount: Int { body.count }
            }
            """,
            expandsTo: """
                public struct Note {
                    public var id: UUID
                    public var body: String
                    public var tags: [String]
                    public var mood: Mood?
                    public var stamp: Foundation.Date
                    public var isSelected = false
                    public var wordCount: Int { body.count }
                }

                extension Note: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable {
                    public static let tableName = "notes"
                    public static let primaryKeyColumn = "id"
                    public static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [
                        SQLiteStoreCore.ModelColumn("id", affinity: .text, isPrimaryKey: true),
                        SQLiteStoreCore.ModelColumn("body_text", affinity: .text),
                        SQLiteStoreCore.ModelColumn("tags", affinity: .text),
                        SQLiteStoreCore.ModelColumn("mood", affinity: nil, isNullable: true),
                        SQLiteStoreCore.ModelColumn("stamp", affinity: .real)
                    ]
                    public init(row: SQLiteStoreCore.StoreRow) throws {
                        let value0 = try row.decode((UUID).self, at: 0)
                        let value1 = try row.decode((String).self, at: 1)
                        let value2 = try row.decode(([String]).self, at: 2)
                        let value3 = try row.decode((Mood?).self, at: 3)
                        let value4 = try row.decode((Foundation.Date).self, at: 4)
                        self.id = value0
                        self.body = value1
                        self.tags = value2
                        self.mood = value3
                        self.stamp = value4
                    }
                    public func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                        try bindings.bind(self.id, at: 0)
                        try bindings.bind(self.body, at: 1)
                        try bindings.bind(self.tags, at: 2)
                        try bindings.bind(self.mood, at: 3)
                        try bindings.bind(self.stamp, at: 4)
                    }
                    public struct Columns: Sendable {
                        public let id = SQLiteStoreCore.TypedColumn<Note, UUID>("id")
                        public let body = SQLiteStoreCore.TypedColumn<Note, String>("body_text")
                        public let tags = SQLiteStoreCore.TypedColumn<Note, [String]>("tags")
                        public let mood = SQLiteStoreCore.TypedColumn<Note, Mood?>("mood")
                        public let stamp = SQLiteStoreCore.TypedColumn<Note, Foundation.Date>("stamp")
                    }
                    public static let columns = Columns()
                    public struct Draft: SQLiteStoreCore.StoreDraft {
                        public typealias Model = Note
                        public var id: UUID?
                        public var body: String
                        public var tags: [String]
                        public var mood: Mood?
                        public var stamp: Foundation.Date
                        public init(id: UUID? = nil, body: String, tags: [String], mood: Mood? = nil, stamp: Foundation.Date) {
                            self.id = id
                            self.body = body
                            self.tags = tags
                            self.mood = mood
                            self.stamp = stamp
                        }
                        public func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                            try bindings.bind(self.id, at: 0)
                            try bindings.bind(self.body, at: 1)
                            try bindings.bind(self.tags, at: 2)
                            try bindings.bind(self.mood, at: 3)
                            try bindings.bind(self.stamp, at: 4)
                        }
                    }
                }
                """)
    }

    @Test("@PrimaryKey on a String property: the key column is its own, and id forwards to it; a declared tableName stays")
    func markedStringKey() {
        expectExpansion(
            """
            @StoreModel
            struct Country {
                static let tableName = "countries"
                @PrimaryKey var code: String
                var name: String
            }
            """,
            expandsTo: """
                struct Country {
                    static let tableName = "countries"
                    var code: String
                    var name: String
                }

                extension Country: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable {
                    static let primaryKeyColumn = "code"
                    static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [
                        SQLiteStoreCore.ModelColumn("code", affinity: .text, isPrimaryKey: true),
                        SQLiteStoreCore.ModelColumn("name", affinity: .text)
                    ]
                    init(row: SQLiteStoreCore.StoreRow) throws {
                        let value0 = try row.decode((String).self, at: 0)
                        let value1 = try row.decode((String).self, at: 1)
                        self.code = value0
                        self.name = value1
                    }
                    func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                        try bindings.bind(self.code, at: 0)
                        try bindings.bind(self.name, at: 1)
                    }
                    struct Columns: Sendable {
                        let code = SQLiteStoreCore.TypedColumn<Country, String>("code")
                        let name = SQLiteStoreCore.TypedColumn<Country, String>("name")
                    }
                    static let columns = Columns()
                    var id: String {
                        get {
                            self.code
                        }
                        set {
                            self.code = newValue
                        }
                    }
                    struct Draft: SQLiteStoreCore.StoreDraft {
                        typealias Model = Country
                        var code: String?
                        var name: String
                        var id: String? {
                            get {
                                self.code
                            }
                            set {
                                self.code = newValue
                            }
                        }
                        init(code: String? = nil, name: String) {
                            self.code = code
                            self.name = name
                        }
                        func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                            try bindings.bind(self.code, at: 0)
                            try bindings.bind(self.name, at: 1)
                        }
                    }
                }
                """)
    }

    @Test("Several variables in one declaration share the trailing type; observers keep a property stored")
    func sharedTypeAndObservers() {
        expectExpansion(
            """
            @StoreModel
            struct Point {
                var id: Int64
                var x, y: Double
                var label: String? { didSet { } }
            }
            """,
            expandsTo: """
                struct Point {
                    var id: Int64
                    var x, y: Double
                    var label: String? { didSet { } }
                }

                extension Point: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable {
                    static let tableName = "point"
                    static let primaryKeyColumn = "id"
                    static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [
                        SQLiteStoreCore.ModelColumn("id", affinity: .integer, isPrimaryKey: true),
                        SQLiteStoreCore.ModelColumn("x", affinity: .real),
                        SQLiteStoreCore.ModelColumn("y", affinity: .real),
                        SQLiteStoreCore.ModelColumn("label", affinity: .text, isNullable: true)
                    ]
                    init(row: SQLiteStoreCore.StoreRow) throws {
                        let value0 = try row.decode((Int64).self, at: 0)
                        let value1 = try row.decode((Double).self, at: 1)
                        let value2 = try row.decode((Double).self, at: 2)
                        let value3 = try row.decode((String?).self, at: 3)
                        self.id = value0
                        self.x = value1
                        self.y = value2
                        self.label = value3
                    }
                    func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                        try bindings.bind(self.id, at: 0)
                        try bindings.bind(self.x, at: 1)
                        try bindings.bind(self.y, at: 2)
                        try bindings.bind(self.label, at: 3)
                    }
                    struct Columns: Sendable {
                        let id = SQLiteStoreCore.TypedColumn<Point, Int64>("id")
                        let x = SQLiteStoreCore.TypedColumn<Point, Double>("x")
                        let y = SQLiteStoreCore.TypedColumn<Point, Double>("y")
                        let label = SQLiteStoreCore.TypedColumn<Point, String?>("label")
                    }
                    static let columns = Columns()
                    struct Draft: SQLiteStoreCore.StoreDraft {
                        typealias Model = Point
                        var id: Int64?
                        var x: Double
                        var y: Double
                        var label: String?
                        init(id: Int64? = nil, x: Double, y: Double, label: String? = nil) {
                            self.id = id
                            self.x = x
                            self.y = y
                            self.label = label
                        }
                        func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                            try bindings.bind(self.id, at: 0)
                            try bindings.bind(self.x, at: 1)
                            try bindings.bind(self.y, at: 2)
                            try bindings.bind(self.label, at: 3)
                        }
                    }
                }
                """)
    }

    @Test("Static relationship declarations in the body are listed in storeRelationships; other statics are not")
    func relationships() {
        expectExpansion(
            """
            @StoreModel
            public struct Item {
                public var id: Int64?
                public static let list = ToOne<Item, TodoList>("list", foreignKey: "list_id")
                static let tags: SQLiteStoreCore.ManyToMany<Item, Tag> = .init("tags", through: "item_tag", sourceKey: "item_id", targetKey: "tag_id")
                static let children = SQLiteStoreCore.ToMany("children", inverse: Child.item)
                static let limit = 3
            }
            """,
            expandsTo: """
                public struct Item {
                    public var id: Int64?
                    public static let list = ToOne<Item, TodoList>("list", foreignKey: "list_id")
                    static let tags: SQLiteStoreCore.ManyToMany<Item, Tag> = .init("tags", through: "item_tag", sourceKey: "item_id", targetKey: "tag_id")
                    static let children = SQLiteStoreCore.ToMany("children", inverse: Child.item)
                    static let limit = 3
                }

                extension Item: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable {
                    public static let tableName = "item"
                    public static let primaryKeyColumn = "id"
                    public static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [
                        SQLiteStoreCore.ModelColumn("id", affinity: .integer, isNullable: true, isPrimaryKey: true)
                    ]
                    public init(row: SQLiteStoreCore.StoreRow) throws {
                        let value0 = try row.decode((Int64?).self, at: 0)
                        self.id = value0
                    }
                    public func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                        try bindings.bind(self.id, at: 0)
                    }
                    public struct Columns: Sendable {
                        public let id = SQLiteStoreCore.TypedColumn<Item, Int64?>("id")
                    }
                    public static let columns = Columns()
                    public static var storeRelationships: [SQLiteStoreCore.AnyRelationship] {
                        [SQLiteStoreCore.AnyRelationship(Self.list), SQLiteStoreCore.AnyRelationship(Self.tags), SQLiteStoreCore.AnyRelationship(Self.children)]
                    }
                    public struct Draft: SQLiteStoreCore.StoreDraft {
                        public typealias Model = Item
                        public var id: Int64?
                        public init(id: Int64? = nil) {
                            self.id = id
                        }
                        public func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                            try bindings.bind(self.id, at: 0)
                        }
                    }
                }
                """)
    }

    @Test("The draft's initializer takes the declared defaults; a struct that declares its own Draft keeps it")
    func draftDefaultsAndOwnDraft() {
        expectExpansion(
            """
            @StoreModel
            struct Job {
                var id: Int64
                var title: String = "Untitled"
                var tries: Int = Self.defaultTries
                var note: String?
            }
            """,
            expandsTo: """
                struct Job {
                    var id: Int64
                    var title: String = "Untitled"
                    var tries: Int = Self.defaultTries
                    var note: String?
                }

                extension Job: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable {
                    static let tableName = "job"
                    static let primaryKeyColumn = "id"
                    static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [
                        SQLiteStoreCore.ModelColumn("id", affinity: .integer, isPrimaryKey: true),
                        SQLiteStoreCore.ModelColumn("title", affinity: .text),
                        SQLiteStoreCore.ModelColumn("tries", affinity: .integer),
                        SQLiteStoreCore.ModelColumn("note", affinity: .text, isNullable: true)
                    ]
                    init(row: SQLiteStoreCore.StoreRow) throws {
                        let value0 = try row.decode((Int64).self, at: 0)
                        let value1 = try row.decode((String).self, at: 1)
                        let value2 = try row.decode((Int).self, at: 2)
                        let value3 = try row.decode((String?).self, at: 3)
                        self.id = value0
                        self.title = value1
                        self.tries = value2
                        self.note = value3
                    }
                    func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                        try bindings.bind(self.id, at: 0)
                        try bindings.bind(self.title, at: 1)
                        try bindings.bind(self.tries, at: 2)
                        try bindings.bind(self.note, at: 3)
                    }
                    struct Columns: Sendable {
                        let id = SQLiteStoreCore.TypedColumn<Job, Int64>("id")
                        let title = SQLiteStoreCore.TypedColumn<Job, String>("title")
                        let tries = SQLiteStoreCore.TypedColumn<Job, Int>("tries")
                        let note = SQLiteStoreCore.TypedColumn<Job, String?>("note")
                    }
                    static let columns = Columns()
                    struct Draft: SQLiteStoreCore.StoreDraft {
                        typealias Model = Job
                        var id: Int64?
                        var title: String
                        var tries: Int
                        var note: String?
                        init(id: Int64? = nil, title: String = "Untitled", tries: Int = Job.defaultTries, note: String? = nil) {
                            self.id = id
                            self.title = title
                            self.tries = tries
                            self.note = note
                        }
                        func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                            try bindings.bind(self.id, at: 0)
                            try bindings.bind(self.title, at: 1)
                            try bindings.bind(self.tries, at: 2)
                            try bindings.bind(self.note, at: 3)
                        }
                    }
                }
                """)
        expectExpansion(
            """
            @StoreModel
            struct Job {
                var id: Int64
                var title: String
                struct Draft {}
            }
            """,
            expandsTo: """
                struct Job {
                    var id: Int64
                    var title: String
                    struct Draft {}
                }

                extension Job: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable {
                    static let tableName = "job"
                    static let primaryKeyColumn = "id"
                    static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [
                        SQLiteStoreCore.ModelColumn("id", affinity: .integer, isPrimaryKey: true),
                        SQLiteStoreCore.ModelColumn("title", affinity: .text)
                    ]
                    init(row: SQLiteStoreCore.StoreRow) throws {
                        let value0 = try row.decode((Int64).self, at: 0)
                        let value1 = try row.decode((String).self, at: 1)
                        self.id = value0
                        self.title = value1
                    }
                    func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {
                        try bindings.bind(self.id, at: 0)
                        try bindings.bind(self.title, at: 1)
                    }
                    struct Columns: Sendable {
                        let id = SQLiteStoreCore.TypedColumn<Job, Int64>("id")
                        let title = SQLiteStoreCore.TypedColumn<Job, String>("title")
                    }
                    static let columns = Columns()
                }
                """)
    }
}
