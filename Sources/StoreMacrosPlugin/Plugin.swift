import SQLiteStoreMacrosImplementation
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plugin of `SQLiteStoreMacros`. The compiler finds a macro by this module's
/// name and the type's, so each macro has a type here that forwards to its implementation.
@main
struct StoreMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [StoreModelMacro.self, MarkerMacro.self]
}

/// `@StoreModel`, expanded by `StoreModelExpansion`.
public struct StoreModelMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try StoreModelExpansion.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type,
            conformingTo: protocols, in: context)
    }
}

/// `@PrimaryKey`, `@StoreColumn` and `@StoreIgnored`, which expand to nothing.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
