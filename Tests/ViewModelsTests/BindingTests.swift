import Observation
import SQLiteStoreViewModels
import Testing

/// An observable source that counts the writes to its properties.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class BoundPerson {
    var name: String { didSet { nameWrites += 1 } }
    var age = 0
    var friend: BoundPerson?
    @ObservationIgnored private(set) var nameWrites = 0

    init(name: String = "") {
        self.name = name
    }
}

/// A plain, non-observable observer that counts the assignments it receives.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class BoundLabel {
    var text = "" { didSet { assignments += 1 } }
    private(set) var assignments = 0
}

/// An observable observer for two-way bindings that counts the writes it receives.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class BoundTextField {
    var text = "" { didSet { writes += 1 } }
    var number = 0
    @ObservationIgnored private(set) var writes = 0
}

/// Counts calls to a closure.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class BindingCallCounter {
    private(set) var count = 0

    func record() {
        count += 1
    }
}

/// Lets every main-actor task scheduled so far run, and the tasks those schedule in turn.
///
/// Bindings deliver in main-actor tasks enqueued by the change; each marker task is
/// enqueued behind them, so when it completes they have run.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
func settleMainActor() async {
    for _ in 0..<4 {
        await Task { @MainActor in }.value
    }
}

@MainActor
@Suite("One-way bindings")
struct BindingTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func assignsTheInitialValueAtOnceAndEachChangeAfterTheTurn() async {
        let person = BoundPerson(name: "Kim")
        let label = BoundLabel()
        let token = person.bind(\.name, to: label, \.text)

        #expect(label.text == "Kim")
        #expect(label.assignments == 1)
        #expect(token.isBound)

        person.name = "Hobbit"
        #expect(label.text == "Kim", "delivery waits for the current main-actor turn to end")
        await settleMainActor()
        #expect(label.text == "Hobbit")
        #expect(label.assignments == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func withoutInitialValueWaitsForTheFirstChange() async {
        let person = BoundPerson(name: "Kim")
        let label = BoundLabel()
        let token = person.bind(\.name, to: label, \.text, initial: false)

        await settleMainActor()
        #expect(label.text == "")
        #expect(label.assignments == 0)

        person.name = "Hobbit"
        await settleMainActor()
        #expect(label.text == "Hobbit")
        #expect(label.assignments == 1)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func changesInOneTurnArriveAsOneAssignmentOfTheLatestValue() async {
        let person = BoundPerson(name: "a")
        let label = BoundLabel()
        let token = person.bind(\.name, to: label, \.text)

        person.name = "b"
        person.name = "c"
        person.name = "d"
        await settleMainActor()
        #expect(label.text == "d")
        #expect(label.assignments == 2)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func transformRunsOncePerDelivery() async {
        let person = BoundPerson()
        person.age = 3
        let label = BoundLabel()
        let transforms = BindingCallCounter()
        let token = person.bind(\.age, to: label, \.text) { age in
            transforms.record()
            return "\(age) years"
        }
        #expect(label.text == "3 years")

        person.age = 4
        await settleMainActor()
        person.age = 5
        await settleMainActor()
        #expect(label.text == "5 years")
        #expect(transforms.count == 3)
        #expect(label.assignments == 3)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func followsAKeyPathThroughSeveralObjects() async {
        let person = BoundPerson()
        let label = BoundLabel()
        let token = person.bind(\.friend?.name, to: label, \.text) { $0 ?? "nobody" }
        #expect(label.text == "nobody")

        let friend = BoundPerson(name: "Kim")
        person.friend = friend
        await settleMainActor()
        #expect(label.text == "Kim")

        friend.name = "Hobbit"
        await settleMainActor()
        #expect(label.text == "Hobbit")
        #expect(label.assignments == 3)
        token.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func assigningAnEqualValueDeliversNothing() async {
        let person = BoundPerson(name: "Kim")
        let label = BoundLabel()
        let token = person.bind(\.name, to: label, \.text)

        person.name = "Kim"
        await settleMainActor()
        #expect(person.nameWrites == 1)
        #expect(label.assignments == 1)
        token.unbind()
    }
}
