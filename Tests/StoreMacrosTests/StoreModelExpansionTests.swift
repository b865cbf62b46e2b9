import Testing

@Suite("@StoreModel expansion")
struct StoreModelExpansionTests {
    @Test("A rowid model: table, key, columns, decoder, encoder and typed columns")
    func rowidModel() {
        expectExpansion("""
            @StoreModel
            struct Item {
                var id: Int64?
                var title: String
                var done: Bool
            }
            """, expandsTo: """
            struct Item {
                var id: Int64?
                var title: String
                var done: Bool
            }
            """)
    }
}
