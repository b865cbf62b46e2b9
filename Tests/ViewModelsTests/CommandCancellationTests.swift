import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Command cancellation")
struct CommandCancellationTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func cancelEndsCancelledWhenTheActionThrowsCancellationError() async {
        let gate = CommandGate()
        let command = Command { (value: Int) in
            await gate.wait()
            try Task.checkCancellation()
            return value
        }

        let execution = command.start(1)
        command.cancel()
        #expect(command.status == .executing, "cancellation is cooperative: the action is still running")
        await gate.open()

        #expect(await execution.value.caseName == "cancelled")
        #expect(command.status == .cancelled)
        #expect(command.lastOutput == nil)
        #expect(command.lastError == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func outputReturnedAfterCancelIsDiscarded() async {
        let gate = CommandGate()
        let command = Command { (value: Int) in
            await gate.wait()
            return value
        }
        let first = command.start(1)
        await gate.open()
        #expect(await first.value.output == 1)

        let execution = command.start(2)
        command.cancel()
        #expect(await execution.value.caseName == "cancelled")
        #expect(command.status == .cancelled)
        #expect(command.lastOutput == 1, "the output of the cancelled execution is discarded")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func actionThrowingCancellationErrorByItselfEndsCancelled() async {
        let command = Command { () throws -> Int in throw CancellationError() }
        #expect(await command.execute().caseName == "cancelled")
        #expect(command.status == .cancelled)
        #expect(command.lastError == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func cancellingTheAwaitingTaskCancelsTheAction() async {
        let gate = CommandGate()
        let command = Command { () async throws -> Int in
            await gate.wait()
            try Task.checkCancellation()
            return 1
        }

        let execution = command.start()
        execution.cancel()
        await settleMainActor()
        await gate.open()
        #expect(await execution.value.caseName == "cancelled")
        #expect(command.status == .cancelled)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func noSecondExecutionWhileACancelledActionIsStillRunning() async {
        let gate = CommandGate()
        let invocations = CommandInvocations()
        let command = gatedCountingCommand(gate, invocations)

        let first = command.start(1)
        command.cancel()
        #expect(await command.execute(2).caseName == "ignored")
        await gate.open()
        #expect(await first.value.caseName == "cancelled")
        #expect(await invocations.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func cancelWithNothingRunningChangesNothing() async {
        let command = Command { (value: Int) in value }
        command.cancel()
        #expect(command.status == .idle)
        #expect(await command.execute(3).output == 3)
        command.cancel()
        #expect(command.status == .succeeded)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func runsAgainAfterACancellation() async {
        let gate = CommandGate()
        let command = Command { (value: Int) in
            await gate.wait()
            try Task.checkCancellation()
            return value
        }
        let cancelled = command.start(1)
        command.cancel()
        await gate.open()
        #expect(await cancelled.value.caseName == "cancelled")
        #expect(command.status == .cancelled)

        #expect(await command.execute(2).output == 2)
        #expect(command.status == .succeeded)
        #expect(command.lastOutput == 2)
    }
}
