import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL cluster for the Server package's tests and benchmark: `initdb` in a
/// temporary folder, `pg_ctl start` on a free loopback port, and everything removed when the
/// process exits. A process killed before it could exit cleanly (a hung test run killed, a
/// crash) leaves its cluster running: the next cluster made on the machine stops those whose
/// owning process is gone, and removes their folders.
///
/// The binaries come from `PG_BIN`, `/usr/local/bin`, the newest `/usr/lib/postgresql/*/bin`
/// (Debian's `postgresql` package) or `PATH`. PostgreSQL refuses to run as root, so under root
/// the cluster runs as the `postgres` user (Debian's package makes it) through `runuser`.
public final class PostgresCluster: @unchecked Sendable {
    /// One cluster for the whole process; each test or benchmark makes its own database in it.
    public static let shared: Result<PostgresCluster, any Error> = {
        let result = Result { try PostgresCluster() }
        if case .success = result { atexit { if case .success(let cluster) = PostgresCluster.shared { cluster.stop() } } }
        return result
    }()

    /// The folder of its data, its log and its tools' output, removed at exit.
    public let folder: URL
    /// The loopback port it listens on.
    public let port: Int
    private let binaries: URL
    private let launcher: [String]

    private init() throws {
        binaries = try Self.findBinaries()
        Self.stopAbandonedClusters()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.folderPrefix)\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try String(getpid()).write(to: folder.appendingPathComponent(Self.ownerFile), atomically: true, encoding: .utf8)
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw ClusterError("running as root needs a postgres user (Debian's postgresql package makes it)")
            }
            guard chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw ClusterError("cannot give \(folder.path) to the postgres user")
            }
            launcher = ["/usr/sbin/runuser", "-u", "postgres", "--"]
        } else {
            launcher = []
        }
        port = try Self.freePort()
        let data = folder.appendingPathComponent("data").path
        try run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        try run(
            "pg_ctl",
            [
                "-D", data, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60", "-o",
                "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                "start",
            ])
    }

    private static let folderPrefix = "store-sync-pg-"
    /// The file of a cluster's folder that names the process that made it.
    private static let ownerFile = "owner.pid"

    /// Stops the clusters of processes that are gone (killed before `atexit` ran) with an
    /// immediate shutdown of their postmaster, and removes their folders.
    private static func stopAbandonedClusters() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            let folder = temporary.appendingPathComponent(name)
            guard let owner = processID(in: folder.appendingPathComponent(ownerFile)), !isRunning(owner) else { continue }
            if let postmaster = processID(in: folder.appendingPathComponent("data/postmaster.pid")), isRunning(postmaster) {
                kill(postmaster, SIGQUIT)
                for _ in 0..<100 where isRunning(postmaster) { usleep(50_000) }
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The process id on the first line of `file`, if it has one.
    private static func processID(in file: URL) -> Int32? {
        (try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n").first.flatMap { Int32($0) }
    }

    private static func isRunning(_ process: Int32) -> Bool { kill(process, 0) == 0 || errno == EPERM }

    /// A URL for a new, empty database in the cluster.
    public func makeDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name])
        return "postgres://postgres@127.0.0.1:\(port)/\(name)"
    }

    /// The process id of the postmaster, the parent of every PostgreSQL process of the cluster.
    public func postmasterProcessID() throws -> Int32 {
        let file = folder.appendingPathComponent("data/postmaster.pid")
        guard let pid = Self.processID(in: file) else { throw ClusterError("\(file.path) does not start with a process id") }
        return pid
    }

    /// Stops the cluster at once and removes its folder.
    public func stop() {
        try? run("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a PostgreSQL tool and waits for it, output to `tool.out`. Spawned and reaped
    /// with `posix_spawn` and `waitpid`: `pg_ctl start` leaves a daemon that inherits the
    /// output file, and Foundation's `Process.waitUntilExit()` was seen never to return then.
    private func run(_ tool: String, _ arguments: [String]) throws {
        let command = launcher + [binaries.appendingPathComponent(tool).path] + arguments
        let output = folder.appendingPathComponent("\(tool).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &arguments, environ)
        guard spawned == 0 else { throw ClusterError("cannot start \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw ClusterError("\(tool) failed (status \(status)): \(said)")
        }
    }

    private static func findBinaries() throws -> URL {
        var candidates: [String] = []
        if let configured = ProcessInfo.processInfo.environment["PG_BIN"] { candidates.append(configured) }
        candidates.append("/usr/local/bin")
        let debian = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += debian.sorted { $0.compare($1, options: .numeric) == .orderedDescending }.map { "/usr/lib/postgresql/\($0)/bin" }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in candidates
        where ["initdb", "pg_ctl", "createdb"].allSatisfy({ FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)") }) {
            return URL(fileURLWithPath: folder)
        }
        throw ClusterError("initdb, pg_ctl and createdb not found in PG_BIN, /usr/local/bin, /usr/lib/postgresql/*/bin or PATH")
    }

    /// A loopback port nothing listens on now (the kernel's pick for port 0).
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ClusterError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw ClusterError("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A cluster or a child process that could not be set up, and why.
public struct ClusterError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
