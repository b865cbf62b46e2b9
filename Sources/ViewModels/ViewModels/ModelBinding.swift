/// One binding of a ``StoreViewModel``: a model key path and what to do with its value.
///
/// It runs when the view model starts and afterwards only when the value at its key path
/// differs between the object before and after a transaction.
@MainActor
struct ModelBinding<M> {
    /// Whether the bound value differs between two versions of the object.
    let hasChanged: (_ old: M, _ new: M) -> Bool
    /// Hands the bound value of `object` to the view model.
    let run: (_ object: M) -> Void

    init<Value: Equatable>(_ keyPath: KeyPath<M, Value>, run: @escaping (Value) -> Void) {
        hasChanged = { $0[keyPath: keyPath] != $1[keyPath: keyPath] }
        self.run = { run($0[keyPath: keyPath]) }
    }
}
