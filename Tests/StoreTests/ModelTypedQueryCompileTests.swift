#if os(Linux) || os(macOS)  // runs swiftc: no `Process` on iOS, tvOS, watchOS or visionOS
import Foundation
import TestSupport
import Testing

/// Typed queries are checked by the compiler: each snippet is type-checked by `swiftc`
/// against the modules this test run was built with (seconds, no package build), and a
/// misspelt column, a value of the wrong type and another model's column must not compile,
/// while the correct snippet must.
@Suite("Typed queries are checked by the compiler")
struct ModelTypedQueryCompileTests {
    static let model = """
        import SQLiteStoreMacros

        @StoreModel
        struct Item {
            var id: Int64?
            var title: String
            var done: Bool
        }

        @StoreModel
        struct Other {
            var id: Int64?
            var name: String
        }

        """

    @Test("The correct query compiles (the check itself works)")
    func correctQueryCompiles() async throws {
        let result = try await typeCheck(
            Self.model + """
                let request = StoreRequest<Item>()
                    .filter { $0.title.hasPrefix("a") && $0.done == false && $0.id.in([1, 2]) }
                    .order { $0.title.ascending(collation: .nocase) }
                """)
        #expect(result.status == 0, "\(result.diagnostics)")
    }

    @Test(
        "A misspelt column does not compile",
        arguments: [
            ("let r = StoreRequest<Item>().filter { $0.titel == \"x\" }", "has no member 'titel'"),
            ("let r = StoreRequest<Item>().order { $0.tilte.ascending }", "has no member 'tilte'"),
            ("func f(_ db: Database, _ item: Item) throws { try db.update(item, columns: \\.dun) }", "has no member 'dun'"),
        ])
    func misspeltColumn(snippet: String, expected: String) async throws {
        let result = try await typeCheck(Self.model + snippet)
        #expect(result.status != 0)
        #expect(result.diagnostics.contains(expected), "\(result.diagnostics)")
    }

    @Test(
        "A value of another type does not compile",
        arguments: [
            "let r = StoreRequest<Item>().filter { $0.done == \"yes\" }",
            "let r = StoreRequest<Item>().filter { $0.title > 3 }",
            "let r = StoreRequest<Item>().filter { $0.title.between(1, and: 2) }",
        ])
    func typeMismatch(snippet: String) async throws {
        let result = try await typeCheck(Self.model + snippet)
        #expect(result.status != 0)
        #expect(result.diagnostics.contains("error:"), "\(result.diagnostics)")
    }

    @Test("Another model's column does not compile in a request")
    func otherModelsColumn() async throws {
        let result = try await typeCheck(Self.model + "let r = StoreRequest<Item>().filter(Other.columns.name == \"x\")")
        #expect(result.status != 0)
        #expect(result.diagnostics.contains("ModelPredicate<Other>"), "\(result.diagnostics)")
    }

    /// Runs `swiftc -typecheck` on `source` with this build's modules and macro plugin.
    private func typeCheck(_ source: String) async throws -> (status: Int32, diagnostics: String) {
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let modules = build.appendingPathComponent("Modules")
        let plugin = build.appendingPathComponent("SQLiteStoreMacrosPlugin-tool")
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try #require(
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("SQLiteStoreMacros.swiftmodule").path),
            "no SQLiteStoreMacros module next to the test binary at \(build.path)")
        try #require(FileManager.default.isExecutableFile(atPath: plugin.path), "no macro plugin at \(plugin.path)")
        let directory = try TemporaryDirectory()
        let file = directory.path("Snippet.swift")
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
            "-Xcc", "-fmodule-map-file=" + repository.appendingPathComponent("Sources/CSQLite/module.modulemap").path,
            "-load-plugin-executable", plugin.path + "#SQLiteStoreMacrosPlugin", file,
        ]
        let diagnostics = directory.path("diagnostics.txt")
        try Data().write(to: URL(fileURLWithPath: diagnostics))
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: diagnostics))
        let process = try SpawnedProcess(
            URL(fileURLWithPath: "/usr/bin/env"), arguments, standardOutput: .handle(output), standardError: .handle(output))
        return (try await process.exited(), try String(contentsOfFile: diagnostics, encoding: .utf8))
    }
}
#endif
