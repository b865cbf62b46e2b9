import Foundation

extension DatabaseValue {
    /// Whether both values are stored as the same bytes: same storage class and same content
    /// (unlike `==`, `0.0` and `-0.0` differ, and so do texts that are canonically equivalent
    /// but spelled with other code points, "é" and "e\u{301}").
    func isIdentical(to other: DatabaseValue) -> Bool {
        switch (self, other) {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        default: self == other
        }
    }
}
