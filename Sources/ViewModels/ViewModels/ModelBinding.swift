/// One binding of a ``StoreViewModel``: a value read from a model and what to do with it.
///
/// It runs when the view model starts and afterwards only when the value it reads differs
/// between the model before and after a transaction.
@MainActor
struct ModelBinding<M> {
    /// Whether the bound value differs between two versions of the model.
    let hasChanged: (_ old: M, _ new: M) -> Bool
    /// Hands the bound value of `model` to the view model.
    let run: (_ model: M) -> Void

    init<Value: Equatable>(_ keyPath: KeyPath<M, Value>, run: @escaping (Value) -> Void) {
        self.init(reading: { $0[keyPath: keyPath] }, run: run)
    }

    /// The binding of the value `value` reads, for example a key path of an optional related model.
    init<Value: Equatable>(reading value: @escaping (M) -> Value, run: @escaping (Value) -> Void) {
        hasChanged = { value($0) != value($1) }
        self.run = { run(value($0)) }
    }
}
