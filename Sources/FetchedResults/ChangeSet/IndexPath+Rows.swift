import Foundation

// UIKit (iOS, tvOS, visionOS, Mac Catalyst) and AppKit extend `IndexPath` with list
// coordinates; elsewhere (Linux, and watchOS, whose UIKit marks them unavailable) this
// file supplies the same names, so the library and its clients use one vocabulary
// everywhere. Importing the UI framework here makes its extensions visible to the rest
// of the module.
#if canImport(UIKit) && !os(watchOS)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

#if !(canImport(UIKit) && !os(watchOS))
extension IndexPath {
    /// Creates the index path of a row in a section of a list.
    public init(row: Int, section: Int) {
        // Appending keeps the two indexes inline: no array is allocated.
        self.init(index: section)
        append(row)
    }

    /// The row of a list index path: the second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
#endif

#if !(canImport(UIKit) && !os(watchOS)) && !canImport(AppKit)
extension IndexPath {
    /// The section of a list index path: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }
}
#endif

extension IndexPath {
    /// "section.row" for list index paths, the plain description otherwise.
    var listDescription: String {
        count == 2 ? "\(section).\(row)" : description
    }
}
