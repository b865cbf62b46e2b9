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
    private var buffer: ModelBuffer

    /// No models, with room for `capacity` without growing.
    init(minimumCapacity capacity: Int = 0) {
        slots.reserveCapacity(capacity)
        rowIDs.reserveCapacity(capacity)
        buffer = ModelBuffer(capacity: capacity, of: M.self)
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
        return models[slot]
    }

    /// The rowid of the model in `slot`.
    func rowID(atSlot slot: Int) -> Int64 { rowIDs[slot] }

    /// Sets `rowID`'s model, replacing the one it had.
    mutating func set(_ model: M, for rowID: Int64) {
        makeUnique(growing: true)
        // One look-up of the table for a new row, the usual case.
        if let slot = slots.updateValue(buffer.count, forKey: rowID) {
            slots[rowID] = slot
            models[slot] = model
        } else {
            rowIDs.append(rowID)
            (models + buffer.count).initialize(to: model)
            buffer.count += 1
        }
    }

    /// Removes `rowID`'s model, if any: the last model takes its slot.
    mutating func remove(_ rowID: Int64) {
        guard let slot = slots.removeValue(forKey: rowID) else { return }
        makeUnique(growing: false)
        let last = buffer.count - 1
        if slot != last {
            swap(&models[slot], &models[last])
            rowIDs.swapAt(slot, last)
            slots[rowIDs[slot]] = slot
        }
        (models + last).deinitialize(count: 1)
        buffer.count -= 1
        rowIDs.removeLast()
    }

    /// The buffer's memory, bound to `M` when the buffer was made.
    private var models: UnsafeMutablePointer<M> { buffer.memory.assumingMemoryBound(to: M.self) }

    /// Gives this value a buffer of its own before a change (with room for one model more
    /// when `growing`): the models are moved when this value held the only reference, else copied.
    private mutating func makeUnique(growing: Bool) {
        let isUnique = isKnownUniquelyReferenced(&buffer)
        let isFull = growing && buffer.count == buffer.capacity
        guard !isUnique || isFull else { return }
        let old = buffer
        let count = old.count
        buffer = ModelBuffer(capacity: isFull ? max(8, old.capacity * 2) : old.capacity, of: M.self)
        let from = old.memory.assumingMemoryBound(to: M.self)
        if isUnique {
            models.moveInitialize(from: from, count: count)
            old.count = 0
        } else {
            models.initialize(from: from, count: count)
        }
        buffer.count = count
    }
}

/// The memory of `RowModels`' models. Not generic, so that checking whether it is shared, or
/// reading it, needs no type metadata (a generic class's is looked up at each use); the
/// element type is known only to the closure that frees the models.
private final class ModelBuffer {
    let memory: UnsafeMutableRawPointer
    let capacity: Int
    var count = 0
    private let deinitialize: (UnsafeMutableRawPointer, Int) -> Void

    init<M>(capacity: Int, of _: M.Type) {
        self.capacity = capacity
        memory = UnsafeMutableRawPointer(UnsafeMutablePointer<M>.allocate(capacity: capacity))
        deinitialize = { memory, count in memory.assumingMemoryBound(to: M.self).deinitialize(count: count) }
    }

    deinit {
        deinitialize(memory, count)
        memory.deallocate()
    }
}

/// Copies share a buffer only to read it; each changes its own (`makeUnique`).
extension RowModels: @unchecked Sendable where M: Sendable {}
