/// Decodes a ``FetchedRow`` into a type of the user's: a key named like an included
/// relationship reads its objects, any other key reads the model. Values are handed over as
/// they are, not encoded again; an included sum, least or greatest value (a `DatabaseValue`)
/// converts to the property's type (`Int64?`, `Double`…), or stays a `DatabaseValue`.
struct FetchedRowDecoder<M: StoreModel>: Decoder {
    let row: FetchedRow<M>
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(row: row, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: codingPath, debugDescription: "a fetched row decodes into a struct, not an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            M.self, .init(codingPath: codingPath, debugDescription: "a fetched row decodes into a struct with named properties"))
    }

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: FetchedRow<M>
        let codingPath: [any CodingKey]

        var allKeys: [Key] { row.related.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { true }

        /// Whether `key` names an included to-one relationship with no parent, or an included
        /// value that is NULL (a sum over no values).
        func decodeNil(forKey key: Key) throws -> Bool {
            guard let included = row.related[key.stringValue] else { return false }
            guard let included else { return true }
            return included as? DatabaseValue == .null
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(type, key) }

        /// What `key` holds: an included relationship's objects, or the model.
        private func decodeValue<T>(_ type: T.Type, _ key: Key) throws -> T {
            let value: Any
            switch row.related[key.stringValue] {
            case .some(.some(let included)): value = included
            case .some(.none):
                throw DecodingError.valueNotFound(
                    T.self, .init(codingPath: codingPath + [key], debugDescription: "\(key.stringValue) has no related row"))
            case .none: value = row.model
            }
            if let stored = value as? DatabaseValue, T.self != DatabaseValue.self,
                let convertible = T.self as? any DatabaseValueConvertible.Type
            {
                // An included value: converted, as a column would be.
                guard let converted = convertible.fromDatabaseValue(stored, as: T.self) else {
                    throw DecodingError.typeMismatch(
                        T.self,
                        .init(
                            codingPath: codingPath + [key], debugDescription: "\(key.stringValue) holds \(stored), which is not \(T.self)"))
                }
                return converted
            }
            guard let typed = value as? T else {
                throw DecodingError.typeMismatch(
                    T.self,
                    .init(
                        codingPath: codingPath + [key],
                        debugDescription: "\(key.stringValue) holds \(Swift.type(of: value)), which is not \(T.self)"))
            }
            return typed
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(type, key) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                [String: Any].self, .init(codingPath: codingPath + [key], debugDescription: "a fetched row has no nested containers"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: codingPath + [key], debugDescription: "a fetched row has no nested containers"))
        }

        func superDecoder() throws -> any Decoder { FetchedRowDecoder(row: row, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { FetchedRowDecoder(row: row, codingPath: codingPath + [key]) }
    }
}
