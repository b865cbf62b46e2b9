import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// A `@StoreModel` struct as the macro understands it: its columns and its primary key.
struct ModelDescription {
    /// The stored properties that are columns, in declaration order.
    let columns: [ModelProperty]
    /// The primary key, one of `columns`.
    let primaryKey: ModelProperty
}

/// Reads the stored properties of a `@StoreModel` struct and diagnoses what cannot be a
/// model, with fix-its where one exists.
struct ModelReader<Context: MacroExpansionContext> {
    let declaration: StructDeclSyntax
    let context: Context
    private var failed = false

    init(declaration: StructDeclSyntax, context: Context) {
        self.declaration = declaration
        self.context = context
    }

    /// The model, or `nil` after diagnosing why there is none.
    mutating func read() -> ModelDescription? {
        var properties: [ModelProperty] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic, !variable.isLazy else { continue }
            properties += storedProperties(of: variable)
        }
        let columns = properties.filter { !$0.isIgnored }
        let key = primaryKey(among: properties)
        guard !failed, let key else { return nil }
        return ModelDescription(columns: columns, primaryKey: key)
    }

    // MARK: Properties

    private mutating func storedProperties(of variable: VariableDeclSyntax) -> [ModelProperty] {
        let bindings = Array(variable.bindings)
        var properties: [ModelProperty] = []
        for (index, binding) in bindings.enumerated() where !binding.isComputed {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            let isIgnored = variable.attribute(named: "StoreIgnored") != nil
            if isIgnored {
                if binding.initializer == nil { diagnose(.ignoredWithoutDefault, at: binding) }
                if let type = binding.typeAnnotation?.type {
                    properties.append(property(name, type, variable, binding, isIgnored: true))
                }
                continue
            }
            if variable.isLet, binding.initializer != nil {
                diagnose(
                    .letWithDefault, at: variable.bindingSpecifier, fixIt: "use 'var'",
                    replacing: variable.bindingSpecifier, with: variable.bindingSpecifier.with(\.tokenKind, .keyword(.var)))
                continue
            }
            guard let type = declaredType(of: binding, following: bindings[(index + 1)...]) else { continue }
            properties.append(property(name, type, variable, binding, isIgnored: false))
        }
        return properties
    }

    private func property(
        _ name: String, _ type: TypeSyntax, _ variable: VariableDeclSyntax, _ binding: PatternBindingSyntax, isIgnored: Bool
    ) -> ModelProperty {
        ModelProperty(
            name: name, type: type,
            columnName: variable.attribute(named: "StoreColumn")?.firstStringArgument ?? name,
            declaration: variable, primaryKeyAttribute: variable.attribute(named: "PrimaryKey"),
            isIgnored: isIgnored, defaultValue: binding.initializer?.value.trimmed)
    }

    /// The binding's type (`var a, b: Int` gives `a` the type of `b`), diagnosed when missing
    /// or not storable.
    private mutating func declaredType(
        of binding: PatternBindingSyntax,
        following: ArraySlice<PatternBindingSyntax>
    ) -> TypeSyntax? {
        let type =
            binding.typeAnnotation?.type
            ?? (binding.initializer == nil ? following.first { $0.typeAnnotation != nil }?.typeAnnotation?.type : nil)
        guard let type else {
            diagnoseMissingType(of: binding)
            return nil
        }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            let optional = OptionalTypeSyntax(wrappedType: unwrapped.wrappedType.trimmed)
            diagnose(
                .implicitlyUnwrapped, at: type, fixIt: "use an optional",
                replacing: type, with: optional.with(\.trailingTrivia, type.trailingTrivia))
            return nil
        }
        if type.isUnstorable {
            diagnose(.unsupportedType, at: type)
            return nil
        }
        return type
    }

    /// Diagnoses a binding without a type, offering the type of a literal initializer.
    private mutating func diagnoseMissingType(of binding: PatternBindingSyntax) {
        let literalType: String? =
            switch binding.initializer?.value.kind {
            case .booleanLiteralExpr: "Bool"
            case .integerLiteralExpr: "Int"
            case .floatLiteralExpr: "Double"
            case .stringLiteralExpr: "String"
            default: nil
            }
        guard let literalType else { return diagnose(.missingType, at: binding.pattern) }
        let pattern = binding.pattern.with(\.trailingTrivia, [])
        let annotated = binding.with(\.pattern, pattern)
            .with(
                \.typeAnnotation,
                TypeAnnotationSyntax(
                    colon: .colonToken(trailingTrivia: .space),
                    type: TypeSyntax(stringLiteral: literalType + " ")))
        diagnose(.missingType, at: binding.pattern, fixIt: "declare it as '\(literalType)'", replacing: binding, with: annotated)
    }

    // MARK: Primary key

    private mutating func primaryKey(among properties: [ModelProperty]) -> ModelProperty? {
        let marked = properties.filter { $0.primaryKeyAttribute != nil }
        for extra in marked.dropFirst() {
            guard let attribute = extra.primaryKeyAttribute else { continue }
            let unmarked = extra.declaration.with(
                \.attributes,
                extra.declaration.attributes.filter {
                    $0.as(AttributeSyntax.self)?.name != "PrimaryKey"
                })
            diagnose(
                .twoPrimaryKeys, at: attribute, fixIt: "remove the second @PrimaryKey",
                replacing: extra.declaration, with: unmarked.with(\.leadingTrivia, extra.declaration.leadingTrivia))
        }
        guard let key = marked.first ?? properties.first(where: { $0.name == "id" }) else {
            diagnoseMissingKey()
            return nil
        }
        if key.isIgnored { diagnose(.ignoredKey, at: key.declaration) }
        if key.name != "id", let id = properties.first(where: { $0.name == "id" }) {
            diagnose(.idIsNotTheKey, at: id.declaration)
        }
        checkKeyType(of: key)
        return key
    }

    private mutating func diagnoseMissingKey() {
        let member = MemberBlockItemSyntax(decl: DeclSyntax("\n    var id: Int64?"))
        var members = declaration.memberBlock.members
        members.insert(member, at: members.startIndex)
        let memberBlock = declaration.memberBlock.with(\.members, members)
        diagnose(
            .missingPrimaryKey, at: declaration.name, fixIt: "add 'var id: Int64?', a rowid that SQLite assigns",
            replacing: declaration.memberBlock, with: memberBlock)
    }

    private mutating func checkKeyType(of key: ModelProperty) {
        if let wrapped = key.type.wrappedInOptional {
            if wrapped.plainName == "Int64" { return }
            if ["UUID", "String"].contains(wrapped.plainName) {
                return diagnose(
                    .optionalTextKey, at: key.type, fixIt: "make it '\(wrapped.plainName)'",
                    replacing: key.type, with: wrapped.trimmed.with(\.trailingTrivia, key.type.trailingTrivia))
            }
        } else if ["Int64", "UUID", "String"].contains(key.type.plainName) {
            return
        }
        diagnose(
            .unsupportedKeyType, at: key.type, fixIt: "use 'Int64?', a rowid that SQLite assigns",
            replacing: key.type, with: TypeSyntax(stringLiteral: "Int64?").with(\.trailingTrivia, key.type.trailingTrivia))
    }

    // MARK: Diagnostics

    private mutating func diagnose(_ message: ModelDiagnostic, at node: some SyntaxProtocol) {
        failed = true
        context.diagnose(Diagnostic(node: Syntax(node), message: message))
    }

    private mutating func diagnose(
        _ message: ModelDiagnostic, at node: some SyntaxProtocol, fixIt: String,
        replacing old: some SyntaxProtocol, with new: some SyntaxProtocol
    ) {
        failed = true
        let change = FixIt.Change.replace(oldNode: Syntax(old), newNode: Syntax(new))
        context.diagnose(
            Diagnostic(
                node: Syntax(node), message: message,
                fixIts: [FixIt(message: ModelFixIt(message: fixIt), changes: [change])]))
    }
}
