import Observation
import Testing

@testable import SQLiteStoreViewModels

/// Released bindings cost nothing: many bindings on one property share one observation, and
/// a released binding leaves it at once, so neither memory nor the next change grows with
/// the bindings made and dropped.
@MainActor
@Suite("Released bindings")
struct BindingReleaseTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func twentyThousandDroppedBindingsLeaveNothingBehind() async {
        let person = BoundPerson(name: "a")
        let label = BoundLabel()
        let kept = person.bind(\.name, to: label, \.text)
        let hub = BindingHub.hub(for: person, \BoundPerson.name)
        for _ in 0..<20_000 {
            let dropped = BoundLabel()
            _ = person.bind(\.name, to: dropped, \.text)
            _ = person.observe(\.name) { _ in }
        }
        #expect(hub.subscriberCount == 1, "only the kept binding follows the name")
        person.name = "b"
        await settleMainActor()
        #expect(label.text == "b")
        kept.unbind()
        #expect(hub.subscriberCount == 0)
        person.name = "c"
        await settleMainActor()
        #expect(BindingHubRegistry.hubs.values.allSatisfy { $0 !== hub }, "an abandoned hub leaves the registry at the next change")
        #expect(label.text == "b")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func bindingsOnOnePropertyShareOneHubAndEachGetsEveryChange() async {
        let person = BoundPerson(name: "a")
        let labels = (0..<5).map { _ in BoundLabel() }
        let tokens = labels.map { person.bind(\.name, to: $0, \.text) }
        let late = BoundLabel()
        person.name = "b"
        let lateToken = person.bind(\.name, to: late, \.text, initial: false)  // after the change: skips its delivery
        await settleMainActor()
        #expect(labels.map(\.text) == Array(repeating: "b", count: 5))
        #expect(late.text == "" && late.assignments == 0)
        person.name = "c"
        await settleMainActor()
        #expect(late.text == "c")
        #expect(BindingHub.hub(for: person, \BoundPerson.name).subscriberCount == 6)
        withExtendedLifetime((tokens, lateToken)) {}
    }
}
