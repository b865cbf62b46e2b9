/// Models by rowid, kept as a table from rowid to slot beside a buffer of the models.
///
/// A controller's code runs generic over the app's model, unspecialized outside the app's
/// module. There every lookup or insert of a `[Int64: M]`, and every call into a
/// `ContiguousArray<M>`, first looks up the type metadata of the collection (and of
/// `Optional<M>`) in the runtime's cache: by `perf`, as much time as decoding the model. The
/// slot table's types are concrete, and the models sit in a buffer that needs only `M`'s own
/// metadata, which generic code is handed. A slot stays valid until the next change.
///
/// A value type: copies share the buffer until one of them changes (copy on write).
struct RowModels<M> {
    private var slots: [Int64: Int] = [:]
    private var rowIDs: [Int64] = []
    private var buffer: Buffer

    /// No models, with room for `capacity` without growing.
    init(minimumCapacity capacity: Int = 0) {
        slots.reserveCapacity(capacity)
        rowIDs.reserveCapacity(capacity)
        buffer = Buffer(capacity: capacity)
    }

    /// The models of `byRowID`.
    init(_ byRowID: [Int64: M]) {
        self.init(minimumCapacity: byRowID.count)
        for (rowID, model) in byRowID { set(model, for: rowID) }
    }

    /// How many models there are.
    var count: Int { buffer.count }

    /// The slot of `rowID`'s model, or `nil` when there is none.
    func slot(of rowID: Int64) -> Int? { slots[rowID] }

    /// The model in `slot`.
    subscript(slot slot: Int) -> M {
        precondition(slot >= 0 && slot < buffer.count, "a slot of RowModels read after a change")
        return buffer.models[slot]
    }

    /// The rowid of the model in `slot`.
    func rowID(atSlot slot: Int) -> Int64 { rowIDs[slot] }

    /// Sets `rowID`'s model, replacing the one it had.
    mutating func set(_ model: M, for rowID: Int64) {
        makeUnique(growing: true)
        // One look-up of the table for a new row, the usual case.
        if let slot = slots.updateValue(buffer.count, forKey: rowID) {
            slots[rowID] = slot
            buffer.models[slot] = model
        } else {
            rowIDs.append(rowID)
            (buffer.models + buffer.count).initialize(to: model)
            buffer.count += 1
        }
    }

    /// Removes `rowID`'s model, if any: the last model takes its slot.
    mutating func remove(_ rowID: Int64) {
        guard let slot = slots.removeValue(forKey: rowID) else { return }
        makeUnique(growing: false)
        let last = buffer.count - 1
        if slot != last {
            swap(&buffer.models[slot], &buffer.models[last])
            rowIDs.swapAt(slot, last)
            slots[rowIDs[slot]] = slot
        }
        (buffer.models + last).deinitialize(count: 1)
        buffer.count -= 1
        rowIDs.removeLast()
    }

    /// Gives this value a buffer of its own before a change (with room for one model more
    /// when `growing`).
    private mutating func makeUnique(growing: Bool) {
        let isUnique = isKnownUniquelyReferenced(&buffer)
        let isFull = growing && buffer.count == buffer.capacity
        guard !isUnique || isFull else { return }
        let capacity = isFull ? max(8, buffer.capacity * 2) : buffer.capacity
        buffer = isUnique ? buffer.moved(capacity: capacity) : buffer.copy(capacity: capacity)
    }

    /// The models, slot after slot, in memory allocated for them.
    private final class Buffer {
        let models: UnsafeMutablePointer<M>
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            models = .allocate(capacity: capacity)
        }

        deinit {
            models.deinitialize(count: count)
            models.deallocate()
        }

        /// A buffer with room for `capacity` holding copies of these models.
        func copy(capacity: Int) -> Buffer {
            let copy = Buffer(capacity: capacity)
            copy.models.initialize(from: models, count: count)
            copy.count = count
            return copy
        }

        /// A buffer with room for `capacity` holding these models, moved out of this one.
        func moved(capacity: Int) -> Buffer {
            let moved = Buffer(capacity: capacity)
            moved.models.moveInitialize(from: models, count: count)
            moved.count = count
            count = 0
            return moved
        }
    }
}

/// Copies share a buffer only to read it; each changes its own (`makeUnique`).
extension RowModels: @unchecked Sendable where M: Sendable {}
