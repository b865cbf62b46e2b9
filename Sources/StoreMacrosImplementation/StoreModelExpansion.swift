import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@StoreModel`: conforms a struct to `TypedStoreModel` with by-index decoding and
/// binding, its table and column names, and typed columns (see the macro's declaration).
public struct StoreModelExpansion: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDeclaration = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: ModelDiagnostic.notAStruct))
            return []
        }
        var reader = ModelReader(declaration: structDeclaration, context: context)
        guard let model = reader.read() else { return [] }
        let source = ModelSource(
            model: model, typeName: structDeclaration.name.text, qualifiedTypeName: type.trimmedDescription,
            access: structDeclaration.generatedAccess, table: node.tableArgument,
            declaredStatics: structDeclaration.staticMemberNames, declaredTypes: structDeclaration.nestedTypeNames,
            relationships: structDeclaration.relationshipNames)
        // The protocols the struct lacks, as the compiler lists them: a macro-made extension
        // conforms only to those the macro declares, the inherited ones included.
        let conformances = protocols.map(\.trimmedDescription).joined(separator: ", ")
        let header = conformances.isEmpty ? "extension \(type.trimmedDescription)" : "extension \(type.trimmedDescription): \(conformances)"
        let decl = DeclSyntax(stringLiteral: "\(header) {\n\(source.members)\n}")
        guard let ext = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [ext]
    }
}

/// The members `@StoreModel` generates, as source text.
struct ModelSource {
    let model: ModelDescription
    let typeName: String
    /// The type as the extension names it (`Outer.Item` for a nested type), for references.
    let qualifiedTypeName: String
    /// `"public "`, `"package "` or `""`: the struct's own access, for members that must match it.
    let access: String
    /// The table name given to the macro, if any.
    let table: String?
    /// Static members the struct declares itself, which the macro leaves alone.
    let declaredStatics: Set<String>
    /// Nested types the struct declares itself (a `Draft` of its own replaces the generated one).
    let declaredTypes: Set<String>
    /// The struct's static relationship declarations, listed in `storeRelationships`.
    let relationships: [String]

    var members: String {
        var members: [String] = []
        if !declaredStatics.contains("tableName") {
            members.append("\(access)static let tableName = \(literal(table ?? defaultTableName))")
        }
        if !declaredStatics.contains("primaryKeyColumn") {
            members.append("\(access)static let primaryKeyColumn = \(literal(model.primaryKey.columnName))")
        }
        members += [storeColumns, initializer, model.encoder(access: access), columnsNamespace, "\(access)static let columns = Columns()"]
        if !relationships.isEmpty, !declaredStatics.contains("storeRelationships") {
            let list = relationships.map { "SQLiteStoreCore.AnyRelationship(Self.\($0))" }.joined(separator: ", ")
            members.append("\(access)static var storeRelationships: [SQLiteStoreCore.AnyRelationship] { [\(list)] }")
        }
        if model.primaryKey.name != "id" {
            members.append(
                """
                \(access)var id: \(model.primaryKey.type.trimmedDescription) {
                    get { self.\(model.primaryKey.name) }
                    set { self.\(model.primaryKey.name) = newValue }
                }
                """)
        }
        if !declaredTypes.contains("Draft") {
            members.append(DraftSource(model: model, qualifiedTypeName: qualifiedTypeName, access: access).declaration)
        }
        return members.joined(separator: "\n")
    }

    /// The type's name with a lowercase first letter: `TodoItem` → `todoItem`.
    private var defaultTableName: String { typeName.prefix(1).lowercased() + typeName.dropFirst() }

    private var storeColumns: String {
        let columns = model.columns.map { property in
            var arguments = [literal(property.columnName), "affinity: \(property.type.storedAffinity.map { "." + $0 } ?? "nil")"]
            if property.isOptional { arguments.append("isNullable: true") }
            if property.name == model.primaryKey.name { arguments.append("isPrimaryKey: true") }
            return "    SQLiteStoreCore.ModelColumn(\(arguments.joined(separator: ", ")))"
        }
        return "\(access)static let storeColumns: [SQLiteStoreCore.ModelColumn]? = [\n\(columns.joined(separator: ",\n"))\n]"
    }

    /// Reads every column into a local first and assigns the properties after the last read:
    /// assigning each property as it is read makes the optimizer build the model in a temporary
    /// and copy it out (a copy and a destroy of every property per row).
    private var initializer: String {
        let reads = model.columns.enumerated().map { index, property in
            "    let value\(index) = try row.decode((\(property.type.trimmedDescription)).self, at: \(index))"
        }
        let assignments = model.columns.enumerated().map { index, property in "    self.\(property.name) = value\(index)" }
        return "\(access)init(row: SQLiteStoreCore.StoreRow) throws {\n\((reads + assignments).joined(separator: "\n"))\n}"
    }

    private var columnsNamespace: String {
        let columns = model.columns.map { property in
            "    \(access)let \(property.name) = SQLiteStoreCore.TypedColumn<\(qualifiedTypeName), \(property.type.trimmedDescription)>(\(literal(property.columnName)))"
        }
        return "\(access)struct Columns: Sendable {\n\(columns.joined(separator: "\n"))\n}"
    }

    private func literal(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }
}

extension StructDeclSyntax {
    /// The access modifier generated members need to satisfy a public protocol on this struct.
    var generatedAccess: String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// The names of the types the struct declares inside itself.
    var nestedTypeNames: Set<String> {
        var names: Set<String> = []
        for member in memberBlock.members {
            let decl = member.decl
            if let name = decl.as(StructDeclSyntax.self)?.name ?? decl.as(EnumDeclSyntax.self)?.name
                ?? decl.as(ClassDeclSyntax.self)?.name ?? decl.as(TypeAliasDeclSyntax.self)?.name
                ?? decl.as(ActorDeclSyntax.self)?.name
            {
                names.insert(name.text)
            }
        }
        return names
    }

    /// The names of the struct's static properties.
    var staticMemberNames: Set<String> {
        var names: Set<String> = []
        for member in memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isStatic else { continue }
            for binding in variable.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { names.insert(name) }
            }
        }
        return names
    }
}

extension AttributeSyntax {
    /// The `table:` argument of `@StoreModel(table:)`.
    var tableArgument: String? {
        guard case .argumentList(let arguments) = self.arguments,
            let table = arguments.first(where: { $0.label?.text == "table" }),
            let literal = table.expression.as(StringLiteralExprSyntax.self),
            literal.segments.count == 1, case .stringSegment(let segment) = literal.segments.first
        else { return nil }
        return segment.content.text
    }
}

extension ModelDescription {
    /// `encode(to:)`, which binds each column's property at its index: the model's and its draft's.
    func encoder(access: String) -> String {
        let binds = columns.enumerated().map { index, property in
            "    try bindings.bind(self.\(property.name), at: \(index))"
        }
        return "\(access)func encode(to bindings: SQLiteStoreCore.StoreBindings) throws {\n\(binds.joined(separator: "\n"))\n}"
    }
}
