import Testing
import ViewModels

@MainActor
@Suite("Binding lifetime")
struct BindingLifetimeTests {
    @Test func droppingTheTokenEndsTheBinding() async {
        let person = Person(name: "a")
        let label = Label()
        let control = Label()
        _ = person.bind(\.name, to: label, \.text)
        let controlToken = person.bind(\.name, to: control, \.text)

        person.name = "b"
        await settle()
        #expect(label.text == "a")
        #expect(label.assignments == 1)
        #expect(control.text == "b", "the control binding proves the change was delivered")
        controlToken.unbind()
    }

    @Test func unbindStopsUpdatesAndCanBeRepeated() async {
        let person = Person(name: "a")
        let label = Label()
        let token = person.bind(\.name, to: label, \.text)

        token.unbind()
        token.unbind()
        #expect(!token.isBound)
        person.name = "b"
        await settle()
        #expect(label.text == "a")
        #expect(label.assignments == 1)
    }

    @Test func bindingNeitherKeepsTheObserverAliveNorCallsItAfterRelease() async {
        let person = Person(name: "a")
        let transforms = CallCounter()
        weak var weakLabel: Label?
        let token: BindingToken
        do {
            let label = Label()
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
        await settle()
        #expect(transforms.count == 1, "only the initial value was transformed")
    }

    @Test func bindingDoesNotKeepTheSourceAlive() async {
        let label = Label()
        weak var weakPerson: Person?
        let token: BindingToken
        do {
            let person = Person(name: "a")
            weakPerson = person
            token = person.bind(\.name, to: label, \.text)
            #expect(token.isBound)
        }
        await settle()
        #expect(weakPerson == nil)
        #expect(!token.isBound)
        #expect(label.text == "a")
        #expect(label.assignments == 1)
    }

    @Test func sourceReleasedWhileADeliveryIsPendingDeliversNothing() async {
        var seen: [String] = []
        weak var weakPerson: Person?
        let token: BindingToken
        do {
            let person = Person(name: "a")
            weakPerson = person
            token = person.observe(\.name) { seen.append($0) }
            person.name = "b"
        }
        await settle()
        #expect(weakPerson == nil)
        #expect(seen == [])
        #expect(!token.isBound)
    }

    @Test func twoWayBindingKeepsNeitherSideAlive() async {
        weak var weakPerson: Person?
        weak var weakField: TextField?
        let token: BindingToken
        do {
            let person = Person(name: "a")
            let field = TextField()
            weakPerson = person
            weakField = field
            token = person.bindTwoWay(\.name, with: field, \.text)
            #expect(field.text == "a")
            field.text = "b"
        }
        await settle()
        #expect(weakPerson == nil)
        #expect(weakField == nil)
        #expect(!token.isBound)
    }

    @Test func twoWayBindingEndsWhenOneSideIsReleased() async {
        let person = Person(name: "a")
        weak var weakField: TextField?
        let token: BindingToken
        do {
            let field = TextField()
            weakField = field
            token = person.bindTwoWay(\.name, with: field, \.text)
        }
        #expect(weakField == nil)
        #expect(!token.isBound)

        person.name = "b"
        await settle()
        #expect(person.name == "b")
        #expect(person.nameWrites == 1)
    }

    @Test func releasingTheTokenReleasesTheHandler() {
        final class Probe {}
        let person = Person()
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
