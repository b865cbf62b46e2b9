import Testing

@testable import SQLiteStoreResults

/// The controller's object store (a slot table over a buffer it manages itself) behaves as a
/// dictionary by rowid through random sets, removals and copies, and frees every model.
@Suite struct RowModelsTests {
    final class Model: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    struct WeakModel {
        weak var model: Model?
    }

    @Test func behavesAsADictionaryThroughSetsRemovalsAndCopies() {
        var random = SeededGenerator()
        var created: [WeakModel] = []
        do {
            var models = RowModels<Model>(minimumCapacity: 2)
            var expected: [Int64: Int] = [:]
            // Copies taken along the way, with what each held then: a later change to one
            // value must not show in another (copy on write).
            var copies: [(models: RowModels<Model>, expected: [Int64: Int])] = []
            for step in 0..<3_000 {
                let rowID = Int64.random(in: -3...60, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let model = Model(step)
                    created.append(WeakModel(model: model))
                    models.set(model, for: rowID)
                    expected[rowID] = step
                case 5..<9:
                    models.remove(rowID)
                    expected[rowID] = nil
                default:
                    copies.append((models, expected))
                    if copies.count > 4 { copies.removeFirst() }
                }
                Self.check(models, equals: expected, "seed \(random.seed), step \(step)")
                if let copy = copies.randomElement(using: &random) {
                    Self.check(copy.models, equals: copy.expected, "a copy, seed \(random.seed), step \(step)")
                }
            }
            #expect(created.contains { $0.model != nil })
        }
        #expect(created.allSatisfy { $0.model == nil }, "every model is freed with the last value holding it")
    }

    private static func check(_ models: RowModels<Model>, equals expected: [Int64: Int], _ context: String) {
        #expect(models.count == expected.count, "\(context)")
        for rowID in Int64(-3)...60 {
            guard let slot = models.slot(of: rowID) else {
                #expect(expected[rowID] == nil, "\(context), rowid \(rowID) missing")
                continue
            }
            #expect(models[slot: slot].value == expected[rowID], "\(context), rowid \(rowID)")
            #expect(models.rowID(atSlot: slot) == rowID, "\(context), rowid \(rowID)")
        }
    }
}
