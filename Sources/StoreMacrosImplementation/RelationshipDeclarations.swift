import SwiftSyntax

extension StructDeclSyntax {
    /// The names of the struct's static properties declared as relationships: initialized by
    /// a call to `ToOne`, `ToMany` or `ManyToMany` (generic arguments and a module prefix
    /// allowed), or annotated with one of those types. `@StoreModel` lists them in
    /// `storeRelationships`, in declaration order.
    var relationshipNames: [String] {
        var names: [String] = []
        for member in memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isStatic else { continue }
            for binding in variable.bindings where binding.declaresRelationship {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { names.append(name) }
            }
        }
        return names
    }
}

extension PatternBindingSyntax {
    /// The relationship types, by their unqualified names.
    private static let relationshipTypes: Set<String> = ["ToOne", "ToMany", "ManyToMany"]

    /// Whether the binding's type annotation or initializer names a relationship type.
    fileprivate var declaresRelationship: Bool {
        if let type = typeAnnotation?.type, Self.relationshipTypes.contains(type.baseName) { return true }
        guard let call = initializer?.value.as(FunctionCallExprSyntax.self) else { return false }
        return Self.relationshipTypes.contains(call.calledExpression.baseName)
    }
}

extension SyntaxProtocol {
    /// The last name of a type or callee, without generic arguments or module prefix:
    /// `SQLiteStoreCore.ToOne<Item, TodoList>` → `ToOne`.
    fileprivate var baseName: String {
        if let generic = self.as(GenericSpecializationExprSyntax.self) { return generic.expression.baseName }
        if let member = self.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let reference = self.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let identifier = self.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = self.as(MemberTypeSyntax.self) { return member.name.text }
        return ""
    }
}
