import Dispatch

/// Waits on `semaphore` long enough for any working store (a deadlock gives up instead of hanging).
func waitBriefly(_ semaphore: DispatchSemaphore) -> Bool {
    semaphore.wait(timeout: .now() + 30) == .success
}
