import Foundation

/// The CPU time that PostgreSQL, the server processes and this process (the clients) used.
struct CPUUse {
    var postgres: Duration?
    var servers: Duration?
    var clients: Duration?

    /// The CPU time used so far by the cluster under `postmaster`, the processes `servers` and this one.
    init(postmaster: Int32, servers: [Int32]) {
        postgres = ProcessCPU.treeTime(of: postmaster)
        let times = servers.compactMap { ProcessCPU.time(of: $0) }
        self.servers = times.count == servers.count ? times.reduce(.zero, +) : nil
        clients = ProcessCPU.time(of: getpid())
    }

    private init(postgres: Duration?, servers: Duration?, clients: Duration?) {
        self.postgres = postgres
        self.servers = servers
        self.clients = clients
    }

    /// What was used between `earlier` and this reading.
    func since(_ earlier: CPUUse) -> CPUUse {
        func difference(_ end: Duration?, _ start: Duration?) -> Duration? { end.flatMap { end in start.map { end - $0 } } }
        return CPUUse(
            postgres: difference(postgres, earlier.postgres), servers: difference(servers, earlier.servers),
            clients: difference(clients, earlier.clients))
    }
}
