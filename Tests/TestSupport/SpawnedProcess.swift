// Child processes: Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation

/// A child process started with `posix_spawn`: it runs in a given folder and inherits its
/// standard input, output and error and no other descriptor.
///
/// The tests' stand-in for Foundation's `Process`, whose `run()` on Linux (Swift 6.3.1) reads
/// past glibc's `readdir` buffer while it lists `/proc/self/fd` to close every descriptor in
/// the child (swift-corelibs-foundation #5472). A full test run holds over 2,000 descriptors
/// at its peak, and a CI run died of that read (SIGSEGV in `Process.run()`).
public final class SpawnedProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream {
        /// `/dev/null`.
        case nullDevice
        /// An open file, which this process keeps open (`FileHandle.nullDevice` is `/dev/null`).
        case handle(FileHandle)
        /// A pipe: the child gets the end it uses, and this process closes its own copy of
        /// that end once the child runs, so that the other end sees the child's end of file.
        case pipe(Pipe)
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    private let lock = NSLock()
    /// `waitpid`'s status, once the child has exited and been reaped.
    private var waitStatus: Int32?

    /// Starts `executable` with `arguments` in `folder` (this process's own when `nil`).
    public init(
        _ executable: URL, _ arguments: [String], in folder: URL? = nil,
        standardInput: Stream = .nullDevice, standardOutput: Stream = .nullDevice, standardError: Stream = .nullDevice
    ) throws {
        var actions = SpawnFunctions.emptyActions
        try Self.check(posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams = [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)]
        for (stream, descriptor) in streams {
            try Self.check(Self.connect(stream, to: descriptor, in: &actions))
        }
        if let folder { try Self.check(SpawnFunctions.addChangeDirectory(&actions, folder.path)) }
        var attributes = SpawnFunctions.emptyAttributes
        try Self.check(posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        try Self.check(Self.closeOtherDescriptors(&actions, &attributes))
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        try Self.check(posix_spawn(&pid, executable.path, &actions, &attributes, argv, environment))
        processIdentifier = pid
        for case (.pipe(let pipe), let descriptor) in streams {
            try (descriptor == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { reapedStatus() == nil }

    /// Sends `signal` to the child, unless it has exited (its process id may be another's then).
    public func send(_ signal: Int32) {
        lock.withLock {
            if waitStatus == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Waits for the child to exit without holding a thread, and returns its exit code, or the
    /// number of the signal that ended it.
    public func exited() async throws -> Int32 {
        while true {
            if let status = terminationStatus() { return status }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Blocks the calling thread until the child exits (for code on a thread of its own, not
    /// the tests' shared pool), and returns what `exited()` returns.
    public func waitUntilExit() -> Int32 {
        while true {
            if let status = terminationStatus() { return status }
            usleep(2_000)
        }
    }

    private func terminationStatus() -> Int32? {
        reapedStatus().map { status in
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : signal
        }
    }

    private func reapedStatus() -> Int32? {
        lock.withLock {
            var status: Int32 = 0
            if waitStatus == nil, waitpid(processIdentifier, &status, WNOHANG) == processIdentifier {
                waitStatus = status
            }
            return waitStatus
        }
    }

    private static func connect(_ stream: Stream, to descriptor: Int32, in actions: inout SpawnFunctions.Actions) -> Int32 {
        switch stream {
        case .nullDevice, .handle(FileHandle.nullDevice):  // which has no descriptor on Linux
            return posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
        case .handle(let handle):
            return posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, descriptor)
        case .pipe(let pipe):
            let end = descriptor == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            return posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, descriptor)
        }
    }

    /// Makes the child close every descriptor above standard error; also puts it in a process
    /// group of its own, as `Process` does, so that a terminal's Ctrl-C reaches the tests only.
    private static func closeOtherDescriptors(
        _ actions: inout SpawnFunctions.Actions, _ attributes: inout SpawnFunctions.Attributes
    ) -> Int32 {
        var flags = Int16(POSIX_SPAWN_SETPGROUP)
        #if os(macOS)
        flags |= Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        let closed = SpawnFunctions.addCloseFrom(&actions, 3)
        guard closed == 0 else { return closed }
        #endif
        return posix_spawnattr_setflags(&attributes, flags)
    }

    private static func check(_ result: Int32) throws {
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    }
}

/// What `posix_spawn` takes, as each platform declares it, and the file actions that Swift
/// does not import: glibc declares them only for `_GNU_SOURCE` builds, and macOS 26
/// deprecates `addchdir_np` for a name older SDKs lack. Those are looked up by name in the C
/// library; `ENOSYS` where it has none.
private enum SpawnFunctions {
    #if os(macOS)
    typealias Actions = posix_spawn_file_actions_t?
    typealias Attributes = posix_spawnattr_t?
    static var emptyActions: Actions { nil }
    static var emptyAttributes: Attributes { nil }
    #else
    typealias Actions = posix_spawn_file_actions_t
    typealias Attributes = posix_spawnattr_t
    static var emptyActions: Actions { posix_spawn_file_actions_t() }
    static var emptyAttributes: Attributes { posix_spawnattr_t() }
    #endif

    private typealias PathAction = @convention(c) (UnsafeMutablePointer<Actions>, UnsafePointer<CChar>) -> Int32
    private typealias DescriptorAction = @convention(c) (UnsafeMutablePointer<Actions>, Int32) -> Int32

    static func addChangeDirectory(_ actions: inout Actions, _ path: String) -> Int32 {
        guard let function: PathAction = lookUp("posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return path.withCString { function(&actions, $0) }
    }

    static func addCloseFrom(_ actions: inout Actions, _ lowest: Int32) -> Int32 {
        guard let function: DescriptorAction = lookUp("posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return function(&actions, lowest)
    }

    private static func lookUp<Function>(_ name: String) -> Function? {
        #if os(macOS)
        let symbol = dlsym(RTLD_DEFAULT, name)
        #else
        guard let program = dlopen(nil, RTLD_NOW) else { return nil }  // with every library it loaded
        defer { dlclose(program) }
        let symbol = dlsym(program, name)
        #endif
        return symbol.map { unsafeBitCast($0, to: Function.self) }
    }
}
#endif
