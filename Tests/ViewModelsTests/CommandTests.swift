import Observation
import SQLiteStoreViewModels
import Testing

/// A command that records each invocation, then waits at `gate` and returns its input.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
func gatedCountingCommand(_ gate: CommandGate, _ invocations: CommandInvocations) -> Command<Int, Int> {
    Command { value in
        await invocations.record()
        await gate.wait()
        return value
    }
}

/// Holds actions back until the test opens it; waiting ignores cancellation.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
actor CommandGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }
}

/// Counts action invocations from any isolation.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
actor CommandInvocations {
    private(set) var count = 0

    func record() {
        count += 1
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct CommandTestFailure: Error, Equatable {
    let code: Int
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension CommandOutcome {
    /// The outcome's case without its payload, for expectations.
    var caseName: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .ignored: "ignored"
        }
    }
}

@MainActor
@Suite("Command")
struct CommandTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func startsIdleAndReady() {
        let command = Command { (value: Int) in value }
        #expect(command.status == .idle)
        #expect(!command.isExecuting)
        #expect(command.canExecute)
        #expect(command.lastOutput == nil)
        #expect(command.lastError == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func executesThenSucceeds() async {
        let gate = CommandGate()
        let command = Command { (value: Int) in
            await gate.wait()
            return value * 2
        }

        let execution = command.start(21)
        #expect(command.status == .executing)
        #expect(command.isExecuting)
        #expect(!command.canExecute)

        await gate.open()
        let outcome = await execution.value
        #expect(outcome.output == 42)
        #expect(command.status == .succeeded)
        #expect(command.lastOutput == 42)
        #expect(command.lastError == nil)
        #expect(command.canExecute)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func failureKeepsThePreviousOutputAndRecordsTheError() async {
        let command = Command { (value: Int) in
            guard value >= 0 else { throw CommandTestFailure(code: value) }
            return value
        }
        #expect(await command.execute(7).output == 7)

        let outcome = await command.execute(-1)
        #expect(outcome.error as? CommandTestFailure == CommandTestFailure(code: -1))
        #expect(command.status == .failed)
        #expect(command.lastError as? CommandTestFailure == CommandTestFailure(code: -1))
        #expect(command.lastOutput == 7)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func startingAgainClearsTheLastError() async {
        let gate = CommandGate()
        let command = Command { (shouldFail: Bool) in
            await gate.wait()
            if shouldFail { throw CommandTestFailure(code: 1) }
            return "done"
        }
        await gate.open()
        _ = await command.execute(true)
        #expect(command.lastError != nil)

        let execution = command.start(false)
        #expect(command.lastError == nil)
        #expect(await execution.value.output == "done")
        #expect(command.status == .succeeded)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func secondExecutionWhileRunningIsIgnored() async {
        let gate = CommandGate()
        let invocations = CommandInvocations()
        let command = gatedCountingCommand(gate, invocations)

        let first = command.start(1)
        let second = await command.execute(2)
        let third = await command.start(3).value
        #expect(second.caseName == "ignored")
        #expect(third.caseName == "ignored")

        await gate.open()
        #expect(await first.value.output == 1)
        #expect(command.lastOutput == 1)
        #expect(await invocations.count == 1)

        #expect(await command.execute(4).output == 4)
        #expect(await invocations.count == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func disabledCommandIgnoresExecutions() async {
        let invocations = CommandInvocations()
        let command = Command(isEnabled: false) { (value: Int) in
            await invocations.record()
            return value
        }
        #expect(!command.canExecute)
        #expect(await command.execute(1).caseName == "ignored")
        #expect(command.status == .idle)

        command.isEnabled = true
        #expect(await command.execute(2).output == 2)
        #expect(await invocations.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func predicateGatesExecution() async {
        let person = BoundPerson()
        let command = Command(enabledWhen: { !person.name.isEmpty }) { (value: Int) in value }
        #expect(!command.canExecute)
        #expect(await command.execute(1).caseName == "ignored")

        person.name = "Kim"
        #expect(command.canExecute)
        #expect(await command.execute(2).output == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func statusAndCanExecuteAreObservable() async {
        let gate = CommandGate()
        let command = Command { await gate.wait() }
        var statuses: [CommandStatus] = []
        var readiness: [Bool] = []
        let statusToken = command.observe(\.status, initial: false) { statuses.append($0) }
        let readinessToken = command.observe(\.canExecute, initial: false) { readiness.append($0) }

        let execution = command.start()
        await settleMainActor()
        await gate.open()
        _ = await execution.value
        await settleMainActor()

        #expect(statuses == [.executing, .succeeded])
        #expect(readiness == [false, true])
        statusToken.unbind()
        readinessToken.unbind()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func voidInputConvenience() async {
        let invocations = CommandInvocations()
        let command = Command {
            await invocations.record()
            return await invocations.count
        }
        #expect(await command.execute().output == 1)
        #expect(await command.start().value.output == 2)
    }
}
