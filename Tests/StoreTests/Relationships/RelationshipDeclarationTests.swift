import SQLiteStoreCore
import Testing

/// What each declaration kind says about the schema, and the SQL its columns read.
@Suite("Relationship declarations")
struct RelationshipDeclarationTests {
    @Test("To-one: the child's foreign key to the parent's primary key; the parent's columns read from the child")
    func toOne() {
        #expect(Chore.list.link == ToOneLink(name: "list", childTable: "chore", foreignKey: "list_id", parentTable: "list"))
        #expect(Chore.list.name.column.sql == #"(SELECT "list"."name" FROM "list" WHERE "list"."id" = "chore"."list_id")"#)
        #expect(AnyRelationship(Chore.list).links == [Chore.list.link])
    }

    @Test("To-many: the inverse's foreign key")
    func toMany() {
        #expect(TodoList.chores.link == Chore.list.link)
        #expect(TodoList.chores.name == "chores")
        #expect(AnyRelationship(TodoList.chores).name == "chores")
        #expect(AnyRelationship(TodoList.chores).links == [Chore.list.link])
    }

    @Test("Many-to-many: two links of the join table, one to each side")
    func manyToMany() {
        #expect(Chore.tags.joinTable == "chore_tag")
        #expect(Chore.tags.source == ToOneLink(name: "chore", childTable: "chore_tag", foreignKey: "chore_id", parentTable: "chore"))
        #expect(Chore.tags.target == ToOneLink(name: "tag", childTable: "chore_tag", foreignKey: "tag_id", parentTable: "tag"))
        #expect(AnyRelationship(Chore.tags).links == [Chore.tags.source, Chore.tags.target])
    }

    @Test("Models list their relationships for the schema check; by default none")
    func storeRelationships() {
        #expect(Chore.storeRelationships.map(\.name) == ["list", "tags"])
        #expect(TodoList.storeRelationships.map(\.name) == ["chores"])
        #expect(Tag.storeRelationships.isEmpty)
    }
}
