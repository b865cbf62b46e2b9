/// What the server's maintenance removes to keep its log bounded.
public struct SyncMaintenancePolicy: Sendable, Hashable {
    /// How long a change is kept after another superseded it: a retried push of it within the
    /// window is still recognized by its id, and a snapshot read across the window sees it.
    public var retention: Duration
    /// How long a device may go unseen before the server forgets it (`nil`: never). A forgotten
    /// device that comes back reads a snapshot again, keeping its unpushed changes.
    public var forgetDevicesAfter: Duration?

    /// A policy; by default a day of retention and devices forgotten after 90 days.
    public init(retention: Duration = .seconds(86_400), forgetDevicesAfter: Duration? = .seconds(90 * 86_400)) {
        self.retention = retention
        self.forgetDevicesAfter = forgetDevicesAfter
    }
}
