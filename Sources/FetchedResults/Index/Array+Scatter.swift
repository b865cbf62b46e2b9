extension Array {
    /// Moves element `i` to index `slots[i]` (`slots` holds each index once), writing into
    /// `spare`'s buffer, which then becomes this array's while this array's becomes `spare`:
    /// reordering many arrays of one size in turn makes no buffer after the first call and
    /// frees none (a buffer freed between others that live on stays in malloc's arenas).
    mutating func scatter(to slots: UnsafeBufferPointer<UInt16>, into spare: inout [Element]) {
        precondition(slots.count == count, "one slot per element")
        if spare.count != count { spare = self }
        spare.withUnsafeMutableBufferPointer { target in
            withUnsafeBufferPointer { source in
                for index in source.indices { target[Int(slots[index])] = source[index] }
            }
        }
        swap(&self, &spare)
    }
}
