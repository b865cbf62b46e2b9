import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Raw HTTP to a server, for requests no well-behaved client sends.
enum HTTP {
    struct Answer {
        let status: Int
        let body: Data
        /// The answer's header fields, by lowercased name.
        var headers: [String: String] = [:]
        var text: String { String(decoding: body, as: UTF8.self) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }
    }

    static func send(
        _ method: String, _ url: URL, token: String?, body: Data? = nil, headers: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in http?.allHeaderFields ?? [:] { fields[name.lowercased()] = value }
        return Answer(status: http?.statusCode ?? 0, body: data, headers: fields)
    }
}
