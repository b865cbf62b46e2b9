import SQLiteStoreMacrosImplementation
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, by the names source code uses.
let storeMacros: [String: MacroSpec] = [
    "StoreModel": MacroSpec(
        type: StoreModelExpansion.self, conformances: ["StoreModel", "TypedStoreModel", "Decodable", "Encodable", "Sendable"]),
    "PrimaryKey": MacroSpec(type: NoExpansion.self),
    "StoreColumn": MacroSpec(type: NoExpansion.self),
    "StoreIgnored": MacroSpec(type: NoExpansion.self),
]

/// Expands `source` and compares with `expanded` and `diagnostics`, reporting mismatches
/// as Swift Testing issues at the caller's location.
func expectExpansion(
    _ source: String, expandsTo expanded: String, diagnostics: [DiagnosticSpec] = [],
    applyingFixIts: [String]? = nil, fixedSource: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: storeMacros,
        applyFixIts: applyingFixIts, fixedSource: fixedSource, indentationWidth: .spaces(4)
    ) { failure in
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}

/// The marker attributes, which expand to nothing (as `MarkerMacro` in the plugin).
struct NoExpansion: PeerMacro {
    static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
