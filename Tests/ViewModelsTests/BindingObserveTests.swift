import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Observing with a closure")
struct BindingObserveTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func reportsOnlyChangesWhenAsked() async {
        let person = BoundPerson(name: "a")
        var seen: [String] = []
        let token = person.observe(\.name, initial: false) { seen.append($0) }
        await settleMainActor()
        #expect(seen == [])

        person.name = "b"
        await settleMainActor()
        person.name = "c"
        await settleMainActor()
        #expect(seen == ["b", "c"])
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func reportsTheCurrentValueFirstByDefaultAsBindDoes() async {
        let person = BoundPerson(name: "a")
        var seen: [String] = []
        let token = person.observe(\.name) { seen.append($0) }
        #expect(seen == ["a"])

        person.name = "b"
        await settleMainActor()
        #expect(seen == ["a", "b"])
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func seesChangesTheHandlerMakesItself() async {
        let person = BoundPerson()
        var seen: [Int] = []
        let token = person.observe(\.age, initial: false) { age in
            seen.append(age)
            if age > 10 { person.age = 10 }
        }

        person.age = 15
        await settleMainActor()
        #expect(seen == [15, 10])
        #expect(person.age == 10)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func unbindStopsTheHandler() async {
        let person = BoundPerson(name: "a")
        var stopped: [String] = []
        var control: [String] = []
        let token = person.observe(\.name, initial: false) { stopped.append($0) }
        let controlToken = person.observe(\.name, initial: false) { control.append($0) }

        person.name = "b"
        await settleMainActor()
        token.unbind()
        #expect(!token.isBound)
        person.name = "c"
        await settleMainActor()

        #expect(stopped == ["b"])
        #expect(control == ["b", "c"], "the control binding proves the change was delivered")
        controlToken.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func unbindDropsAValueAlreadyScheduled() async {
        let person = BoundPerson(name: "a")
        var seen: [String] = []
        let token = person.observe(\.name, initial: false) { seen.append($0) }

        person.name = "b"
        token.unbind()
        await settleMainActor()
        #expect(seen == [])
    }
}
