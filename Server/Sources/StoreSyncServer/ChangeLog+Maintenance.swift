import PostgresNIO

extension ChangeLog {
    /// Compacts every account that needs it, one at a time, then forgets the devices not seen
    /// for the policy's period.
    func maintain(_ policy: SyncMaintenancePolicy) async throws -> SyncMaintenanceReport {
        var report = SyncMaintenanceReport()
        (report.accountsCompacted, report.changesRemoved) = try await compact(olderThan: policy.retention)
        if let period = policy.forgetDevicesAfter { report.devicesForgotten = try await pruneDevices(notSeenFor: period) }
        return report
    }
}
