import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Two-way bindings")
struct BindingTwoWayTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func copiesTheSourceFirstThenFollowsEitherSide() async {
        let person = BoundPerson(name: "Kim")
        let field = BoundTextField()
        let token = person.bindTwoWay(\.name, with: field, \.text)
        #expect(field.text == "Kim")
        #expect(field.writes == 1)

        field.text = "Hobbit"
        await settleMainActor()
        #expect(person.name == "Hobbit")

        person.name = "Frodo"
        await settleMainActor()
        #expect(field.text == "Frodo")
        #expect(person.nameWrites == 2, "one write back from the field, one by the test")
        #expect(field.writes == 3, "initial copy, one write by the test, one from the source")
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func withoutInitialValueLeavesBothSidesUntilOneChanges() async {
        let person = BoundPerson(name: "Kim")
        let field = BoundTextField()
        field.text = "typed"
        let token = person.bindTwoWay(\.name, with: field, \.text, initial: false)
        await settleMainActor()
        #expect(person.name == "Kim")
        #expect(field.text == "typed")

        field.text = "Hobbit"
        await settleMainActor()
        #expect(person.name == "Hobbit")
        #expect(person.nameWrites == 1)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func transformsBothWaysWithoutBouncingBack() async {
        let person = BoundPerson(name: "Kim")
        let field = BoundTextField()
        let token = person.bindTwoWay(\.name, with: field, \.text, transform: { $0.uppercased() }, reverse: { $0.lowercased() })
        await settleMainActor()
        #expect(field.text == "KIM")
        #expect(person.name == "Kim", "the write to the field is not sent back")

        field.text = "HOBBIT"
        await settleMainActor()
        await settleMainActor()
        #expect(person.name == "hobbit")
        #expect(field.text == "HOBBIT")
        #expect(person.nameWrites == 1)
        #expect(field.writes == 2)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func transformsThatAreNotInversesDoNotLoop() async {
        let person = BoundPerson()
        let field = BoundTextField()
        let token = person.bindTwoWay(\.age, with: field, \.number, transform: { $0 + 1 }, reverse: { $0 })
        #expect(field.number == 1)

        person.age = 5
        await settleMainActor()
        await settleMainActor()
        #expect(field.number == 6)
        #expect(person.age == 5)

        field.number = 10
        await settleMainActor()
        await settleMainActor()
        #expect(person.age == 10)
        #expect(field.number == 10)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func whenBothSidesChangeInOneTurnTheSourceChangeWinsIfItCameFirst() async {
        let person = BoundPerson(name: "a")
        let field = BoundTextField()
        let token = person.bindTwoWay(\.name, with: field, \.text)

        person.name = "from source"
        field.text = "from field"
        await settleMainActor()
        #expect(person.name == "from source")
        #expect(field.text == "from source")
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func whenBothSidesChangeInOneTurnTheObserverChangeWinsIfItCameFirst() async {
        let person = BoundPerson(name: "a")
        let field = BoundTextField()
        let token = person.bindTwoWay(\.name, with: field, \.text)

        field.text = "from field"
        person.name = "from source"
        await settleMainActor()
        #expect(person.name == "from field")
        #expect(field.text == "from field")
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func unbindStopsBothDirections() async {
        let person = BoundPerson(name: "a")
        let field = BoundTextField()
        let token = person.bindTwoWay(\.name, with: field, \.text)
        token.unbind()

        person.name = "b"
        field.text = "c"
        await settleMainActor()
        #expect(person.nameWrites == 1)
        #expect(field.writes == 2)
        #expect(person.name == "b")
        #expect(field.text == "c")
    }
}
