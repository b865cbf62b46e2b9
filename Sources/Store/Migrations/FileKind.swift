import Foundation

/// What kind of file a `stat` mode describes, in words for messages ("a FIFO (named pipe)").
package struct FileKind: CustomStringConvertible, Sendable {
    /// The `st_mode` of `stat`.
    package let mode: mode_t

    package init(mode: mode_t) {
        self.mode = mode
    }

    /// Whether it is a regular file.
    package var isRegularFile: Bool { mode & S_IFMT == S_IFREG }

    package var description: String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }
}
