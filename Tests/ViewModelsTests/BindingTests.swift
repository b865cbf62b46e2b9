import Observation
import Testing
import ViewModels

/// An observable source that counts the writes to its properties.
@MainActor
@Observable
final class Person {
    var name: String { didSet { nameWrites += 1 } }
    var age = 0
    var friend: Person?
    @ObservationIgnored private(set) var nameWrites = 0

    init(name: String = "") {
        self.name = name
    }
}

/// A plain, non-observable observer that counts the assignments it receives.
@MainActor
final class Label {
    var text = "" { didSet { assignments += 1 } }
    private(set) var assignments = 0
}

/// An observable observer for two-way bindings that counts the writes it receives.
@MainActor
@Observable
final class TextField {
    var text = "" { didSet { writes += 1 } }
    var number = 0
    @ObservationIgnored private(set) var writes = 0
}

/// Counts calls to a closure.
@MainActor
final class CallCounter {
    private(set) var count = 0

    func record() {
        count += 1
    }
}

/// Lets every main-actor task scheduled so far run, and the tasks those schedule in turn.
///
/// Bindings deliver in main-actor tasks enqueued by the change; each marker task is
/// enqueued behind them, so when it completes they have run.
@MainActor
func settle() async {
    for _ in 0..<4 {
        await Task { @MainActor in }.value
    }
}

@MainActor
@Suite("One-way bindings")
struct BindingTests {
    @Test func assignsTheInitialValueAtOnceAndEachChangeAfterTheTurn() async {
        let person = Person(name: "Kim")
        let label = Label()
        let token = person.bind(\.name, to: label, \.text)

        #expect(label.text == "Kim")
        #expect(label.assignments == 1)
        #expect(token.isBound)

        person.name = "Hobbit"
        #expect(label.text == "Kim", "delivery waits for the current main-actor turn to end")
        await settle()
        #expect(label.text == "Hobbit")
        #expect(label.assignments == 2)
    }

    @Test func withoutInitialValueWaitsForTheFirstChange() async {
        let person = Person(name: "Kim")
        let label = Label()
        let token = person.bind(\.name, to: label, \.text, initial: false)

        await settle()
        #expect(label.text == "")
        #expect(label.assignments == 0)

        person.name = "Hobbit"
        await settle()
        #expect(label.text == "Hobbit")
        #expect(label.assignments == 1)
        token.unbind()
    }

    @Test func changesInOneTurnArriveAsOneAssignmentOfTheLatestValue() async {
        let person = Person(name: "a")
        let label = Label()
        let token = person.bind(\.name, to: label, \.text)

        person.name = "b"
        person.name = "c"
        person.name = "d"
        await settle()
        #expect(label.text == "d")
        #expect(label.assignments == 2)
        token.unbind()
    }

    @Test func transformRunsOncePerDelivery() async {
        let person = Person()
        person.age = 3
        let label = Label()
        let transforms = CallCounter()
        let token = person.bind(\.age, to: label, \.text) { age in
            transforms.record()
            return "\(age) years"
        }
        #expect(label.text == "3 years")

        person.age = 4
        await settle()
        person.age = 5
        await settle()
        #expect(label.text == "5 years")
        #expect(transforms.count == 3)
        #expect(label.assignments == 3)
        token.unbind()
    }

    @Test func followsAKeyPathThroughSeveralObjects() async {
        let person = Person()
        let label = Label()
        let token = person.bind(\.friend?.name, to: label, \.text) { $0 ?? "nobody" }
        #expect(label.text == "nobody")

        let friend = Person(name: "Kim")
        person.friend = friend
        await settle()
        #expect(label.text == "Kim")

        friend.name = "Hobbit"
        await settle()
        #expect(label.text == "Hobbit")
        #expect(label.assignments == 3)
        token.unbind()
    }

    @Test func assigningAnEqualValueDeliversNothing() async {
        let person = Person(name: "Kim")
        let label = Label()
        let token = person.bind(\.name, to: label, \.text)

        person.name = "Kim"
        await settle()
        #expect(person.nameWrites == 1)
        #expect(label.assignments == 1)
        token.unbind()
    }
}
