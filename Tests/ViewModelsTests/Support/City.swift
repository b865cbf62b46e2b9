import Observation
import SQLiteStoreCore
import SQLiteStoreViewModels

/// A parent whose key is a text column, not its rowid.
struct Country: StoreModel, Equatable {
    static let tableName = "country"
    var id: Int64?
    var code: String
    var name: String
}

/// A child that refers to its country by code.
struct City: StoreModel, Equatable {
    static let tableName = "city"
    var id: Int64?
    var name: String
    var countryCode: String?

    enum CodingKeys: String, CodingKey {
        case id, name
        case countryCode = "country_code"
    }

    static let country = ToOne<City, Country>("country", foreignKey: "country_code", referencedKey: "code")

    static let schema = """
        CREATE TABLE country(id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
        CREATE TABLE city(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_code TEXT REFERENCES country(code));
        """
}

/// A view model showing a city's country name.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class CityViewModel: StoreViewModel<City> {
    var countryName: String?

    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(City.country, \.name) { viewModel, name in viewModel.countryName = name }
    }
}
