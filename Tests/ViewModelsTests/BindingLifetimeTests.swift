import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Binding lifetime")
struct BindingLifetimeTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func droppingTheTokenEndsTheBinding() async {
        let person = BoundPerson(name: "a")
        let label = BoundLabel()
        let control = BoundLabel()
        _ = person.bind(\.name, to: label, \.text)
        let controlToken = person.bind(\.name, to: control, \.text)

        person.name = "b"
        await settleMainActor()
        #expect(label.text == "a")
        #expect(label.assignments == 1)
        #expect(control.text == "b", "the control binding proves the change was delivered")
        controlToken.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func unbindStopsUpdatesAndCanBeRepeated() async {
        let person = BoundPerson(name: "a")
        let label = BoundLabel()
        let token = person.bind(\.name, to: label, \.text)

        token.unbind()
        token.unbind()
        #expect(!token.isBound)
        person.name = "b"
        await settleMainActor()
        #expect(label.text == "a")
        #expect(label.assignments == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func bindingNeitherKeepsTheObserverAliveNorCallsItAfterRelease() async {
        let person = BoundPerson(name: "a")
        let transforms = BindingCallCounter()
        weak var weakLabel: BoundLabel?
        let token: BindingToken
        do {
            let label = BoundLabel()
            weakLabel = label
            token = person.bind(\.name, to: label, \.text) { name in
                transforms.record()
                return name
            }
            #expect(token.isBound)
        }
        #expect(weakLabel == nil)
        #expect(!token.isBound)

        person.name = "b"
        await settleMainActor()
        #expect(transforms.count == 1, "only the initial value was transformed")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func bindingDoesNotKeepTheSourceAlive() async {
        let label = BoundLabel()
        weak var weakPerson: BoundPerson?
        let token: BindingToken
        do {
            let person = BoundPerson(name: "a")
            weakPerson = person
            token = person.bind(\.name, to: label, \.text)
            #expect(token.isBound)
        }
        await settleMainActor()
        #expect(weakPerson == nil)
        #expect(!token.isBound)
        #expect(label.text == "a")
        #expect(label.assignments == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func sourceReleasedWhileADeliveryIsPendingDeliversNothing() async {
        var seen: [String] = []
        weak var weakPerson: BoundPerson?
        let token: BindingToken
        do {
            let person = BoundPerson(name: "a")
            weakPerson = person
            token = person.observe(\.name, initial: false) { seen.append($0) }
            person.name = "b"
        }
        await settleMainActor()
        #expect(weakPerson == nil)
        #expect(seen == [])
        #expect(!token.isBound)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func twoWayBindingKeepsNeitherSideAlive() async {
        weak var weakPerson: BoundPerson?
        weak var weakField: BoundTextField?
        let token: BindingToken
        do {
            let person = BoundPerson(name: "a")
            let field = BoundTextField()
            weakPerson = person
            weakField = field
            token = person.bindTwoWay(\.name, with: field, \.text)
            #expect(field.text == "a")
            field.text = "b"
        }
        await settleMainActor()
        #expect(weakPerson == nil)
        #expect(weakField == nil)
        #expect(!token.isBound)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func twoWayBindingEndsWhenOneSideIsReleased() async {
        let person = BoundPerson(name: "a")
        weak var weakField: BoundTextField?
        let token: BindingToken
        do {
            let field = BoundTextField()
            weakField = field
            token = person.bindTwoWay(\.name, with: field, \.text)
        }
        #expect(weakField == nil)
        #expect(!token.isBound)

        person.name = "b"
        await settleMainActor()
        #expect(person.name == "b")
        #expect(person.nameWrites == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func releasingTheTokenReleasesTheHandler() {
        final class Probe {}
        let person = BoundPerson()
        weak var weakProbe: Probe?
        do {
            let token: BindingToken
            do {
                let probe = Probe()
                weakProbe = probe
                token = person.observe(\.name) { [probe] _ in _ = probe }
            }
            #expect(weakProbe != nil, "the handler keeps what it captures while the token lives")
            #expect(token.isBound)
        }
        #expect(weakProbe == nil)
    }
}
