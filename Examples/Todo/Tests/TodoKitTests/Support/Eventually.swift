/// Whether `condition` holds within `timeout`, checked every few milliseconds on the main actor
/// (where view models apply their changes).
@MainActor
func eventually(within timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
