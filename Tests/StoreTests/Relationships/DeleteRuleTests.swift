import Testing

@testable import SQLiteStoreCore

/// Delete rules come from the schema; what they do to the children is published exactly.
@Suite("Delete rules", .timeLimit(.minutes(10)))
struct DeleteRuleTests {
    /// List 1 with chores 1–3, list 2 with chore 4.
    static func fixture(onDelete: String, source: ChangeCapture.Source = .preUpdateHook) async throws -> CaptureFixture {
        let fixture = try CaptureFixture(source, schema: RelationshipSchema.script(onDelete: onDelete))
        _ = try await fixture.recorder.commit { db in
            try RelationshipSchema.populate(db, lists: 2, perList: 2)
            try db.execute(sql: "UPDATE chore SET list_id = 1 WHERE id = 3")
        }
        return fixture
    }

    @Test("Each ON DELETE clause reads back as its rule; NO ACTION is the default", arguments: DeleteRule.allCases)
    func ruleFromSchema(rule: DeleteRule) async throws {
        let fixture = try await Self.fixture(onDelete: rule.rawValue)
        try await fixture.store.read { db in
            try #expect(db.deleteRule(of: Chore.list) == rule)
            try #expect(db.deleteRule(of: TodoList.chores) == rule)
            try #expect(db.deleteRule(of: Chore.tags.target) == .cascade)
        }
        let plain = try CaptureFixture(
            .preUpdateHook, schema: "CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE chore(list_id REFERENCES list);")
        try await plain.store.read { db in try #expect(db.deleteRule(of: Chore.list) == .noAction) }
    }

    @Test("A relationship without a foreign key has no delete rule")
    func noForeignKey() throws {
        let fixture = try CaptureFixture(
            .preUpdateHook, schema: "CREATE TABLE list(id INTEGER PRIMARY KEY); CREATE TABLE chore(list_id INTEGER);")
        let error = #expect(throws: StoreError.self) { try fixture.store.read { db in try db.deleteRule(of: Chore.list) } }
        #expect(error?.code == .mismatch)
    }

    @Test("CASCADE deletes the children, and the change lists exactly them", arguments: ChangeCapture.Source.available)
    func cascade(source: ChangeCapture.Source) async throws {
        let fixture = try await Self.fixture(onDelete: "CASCADE", source: source)
        let changes = try await fixture.recorder.commit { db in try db.execute(sql: "DELETE FROM list WHERE id = 1") }
        #expect(changes.changes(in: "list") == TableChanges(deleted: [1]))
        #expect(changes.changes(in: "chore") == TableChanges(deleted: [1, 2, 3]))
        #expect(changes.changes(in: "chore_tag") == TableChanges(deleted: [1, 2, 3]), "chores 1 and 2 had tags; the cascade goes on")
        let left = try await fixture.store.read { db in try db.fetch(StoreRequest<Chore>()).map(\.id) }
        #expect(left == [4])
    }

    @Test("SET NULL updates the children's key, and the change lists exactly them as updated", arguments: ChangeCapture.Source.available)
    func setNull(source: ChangeCapture.Source) async throws {
        let fixture = try await Self.fixture(onDelete: "SET NULL", source: source)
        let changes = try await fixture.recorder.commit { db in try db.execute(sql: "DELETE FROM list WHERE id = 1") }
        #expect(changes.changes(in: "list") == TableChanges(deleted: [1]))
        #expect(changes.changes(in: "chore") == TableChanges(updated: [1, 2, 3]))
        let chores = try await fixture.store.read { db in try db.fetch(StoreRequest<Chore>(), including: Chore.list) }
        #expect(chores.map { $0.0.listID } == [nil, nil, nil, 2])
        #expect(chores.map { $0.1?.id } == [nil, nil, nil, 2])
    }

    @Test("RESTRICT refuses to delete a parent with children: the write throws, nothing is published")
    func restrict() async throws {
        let fixture = try await Self.fixture(onDelete: "RESTRICT")
        let error = await #expect(throws: StoreError.self) {
            _ = try await fixture.recorder.commit { db in try db.execute(sql: "DELETE FROM list WHERE id = 1") }
        }
        #expect(error?.code == .constraint)
        #expect(error?.message.contains("FOREIGN KEY constraint failed") == true)
        let next = try await fixture.recorder.commit { db in try db.execute(sql: "UPDATE list SET name = 'kept' WHERE id = 1") }
        #expect(next.tableChanges.keys.sorted() == ["list"], "the refused delete published nothing")
        #expect(next.changes(in: "list") == TableChanges(updated: [1]))
        let count = try await fixture.store.read { db in try db.count("chore") }
        #expect(count == 4)
    }
}
