import SQLiteStoreCore
import Testing

/// Relationships on text keys, with models read through `Codable`: keys travel as one JSON
/// array, so quotes, backslashes and control characters must survive it.
@Suite("Relationships on text keys")
struct TextKeyRelationshipTests {
    /// A city, read through `Codable`, in a country (`Country`'s key is its text `code`).
    struct City: StoreModel, Equatable {
        static let tableName = "city"
        var id: Int64?
        var name: String
        var countryCode: String?

        enum CodingKeys: String, CodingKey {
            case id, name
            case countryCode = "country_code"
        }

        static let country = ToOne<City, Country>("country", foreignKey: "country_code")
    }

    @Test("Parents and children pair up by text keys that need escaping in JSON")
    func textKeys() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: Country.schema
                + "CREATE TABLE city(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_code TEXT REFERENCES country(code));")
        let codes = ["a\"b\\c\nd\u{1}", "é", "plain"]
        try store.write { db in
            for (index, code) in codes.enumerated() {
                var country = Country(code: code, name: "country \(index)")
                try db.insert(&country)
                var city = City(name: "city \(index)", countryCode: code)
                try db.insert(&city)
            }
        }
        let cities = try store.read { db in try db.fetch(StoreRequest<City>(), including: City.country) }
        #expect(cities.map { $0.1?.code } == codes)
        #expect(cities.map { $0.1?.name } == ["country 0", "country 1", "country 2"])
        let countries = try store.read { db in
            try db.fetch(StoreRequest<Country>(), including: ToMany("cities", inverse: City.country))
        }
        #expect(countries.map { $0.1.map(\.name) } == [["city 0"], ["city 1"], ["city 2"]])
        try store.read { db in try #expect(db.deleteRule(of: City.country) == .noAction) }
    }
}
