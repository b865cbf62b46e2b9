import Foundation
import Observation
import SQLiteStoreViewModels
import Testing

/// A view model that gives itself a command, the documented way.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor @Observable final class CounterViewModel {
    private(set) var total = 0
    @ObservationIgnored private(set) lazy var add: Command<Int, Int> = Command(owner: self) { counter, amount in
        await counter.increase(by: amount)
        return amount
    }

    func increase(by amount: Int) { total += amount }
}

/// `Command(owner:)` holds its owner weakly; `CommandOutcome` is `Equatable`.
@MainActor
@Suite("Commands owned by their view model")
struct CommandOwnerTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aCommandMadeWithItsOwnerDoesNotKeepItAlive() async {
        var model: CounterViewModel? = CounterViewModel()
        weak let weakModel = model
        #expect(await model?.add.execute(2) == .succeeded(2))
        #expect(model?.total == 2)
        let command = model?.add
        model = nil
        #expect(weakModel == nil, "the command's action does not hold its owner")
        #expect(await command?.execute(1) == .cancelled, "without its owner the command does not run")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func outcomesCompareByCaseOutputAndError() {
        #expect(CommandOutcome.succeeded(1) == .succeeded(1))
        #expect(CommandOutcome.succeeded(1) != .succeeded(2))
        #expect(CommandOutcome<Int>.failed(CommandTestFailure(code: 1)) == .failed(CommandTestFailure(code: 1)))
        #expect(CommandOutcome<Int>.failed(CommandTestFailure(code: 1)) != .failed(CommandTestFailure(code: 2)))
        #expect(CommandOutcome<Int>.failed(CancellationError()) == .failed(CancellationError()), "not Equatable: by type and description")
        #expect(CommandOutcome<Int>.failed(CommandTestFailure(code: 1)) != .failed(CancellationError()))
        #expect(CommandOutcome<Int>.cancelled == .cancelled && CommandOutcome<Int>.ignored != .cancelled)
    }
}
