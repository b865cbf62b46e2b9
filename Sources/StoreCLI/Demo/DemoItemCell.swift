/// The cell view model of one item in the demo's list: what its row shows.
struct DemoItemCell {
    let id: Int64
    /// The row's text, without its change mark.
    let text: String

    init(_ item: DemoItem) {
        id = item.id ?? 0
        let due = item.dueDate.map { "  due \($0)" } ?? ""
        text = "#\(id) \(item.title)  (position \(item.position))\(due)\(item.done ? "  ✓ done" : "")"
    }

    /// The row of an item deleted before its change set arrived.
    init(placeholderFor rowID: Int64) {
        id = rowID
        text = "#\(rowID) …"
    }
}
