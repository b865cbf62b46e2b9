import Logging
import PostgresNIO
import ServiceLifecycle

/// Listens on PostgreSQL's ``ChangeLog/channel`` for the whole life of the process and wakes the
/// local waiting pulls of the account each notification names: a push received by any server
/// process on the database reaches the long polls of every other one.
struct ChangeListener: Service {
    let client: PostgresClient
    let notifier: ChangeNotifier
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown { await listen() }
    }

    private func listen() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: ChangeLog.channel) { notifications in
                        // Listening (again): whatever was announced before may have been missed.
                        await notifier.notifyAll()
                        for try await notification in notifications {
                            if let account = Int64(notification.payload) { await notifier.notify(account: account) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("sync: listening for changes failed, retrying: \(error)")
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
