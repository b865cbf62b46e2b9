import SQLiteStore
import TodoKit

extension TodoScreen {
    /// The sections as one line each, `Name: title, ✓done title`, to compare in one expectation.
    var lines: [String] {
        outline.map { section in
            "\(section.name): " + section.items.map { ($0.done ? "✓" : "") + $0.title }.joined(separator: ", ")
        }
    }

    /// The item list's identities, section by section, as its change sets describe them.
    var snapshot: SectionedSnapshot<ObjectID> {
        items.results.sectionedSnapshot()
    }
}
