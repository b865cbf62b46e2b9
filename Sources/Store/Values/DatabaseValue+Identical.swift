import Foundation

extension DatabaseValue {
    /// Whether both values are stored as the same bytes: same storage class and same content
    /// (unlike `==`, `0.0` and `-0.0` differ).
    package func isIdentical(to other: DatabaseValue) -> Bool {
        switch (self, other) {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        default: self == other
        }
    }
}
