import SwiftSyntax

/// One stored property of a `@StoreModel` struct, as the macro reads it.
struct ModelProperty {
    /// The property's name.
    let name: String
    /// The declared type.
    let type: TypeSyntax
    /// The column's name: the property's, or the one `@StoreColumn` gives.
    let columnName: String
    /// The declaration, where diagnostics point.
    let declaration: VariableDeclSyntax
    /// `@PrimaryKey`, when present.
    let primaryKeyAttribute: AttributeSyntax?
    /// Whether `@StoreIgnored` leaves it out of the table.
    let isIgnored: Bool
    /// The declared default value (`= false`), which the draft's initializer takes too.
    let defaultValue: ExprSyntax?

    /// Whether the type is optional (`T?` or `Optional<T>`): the column accepts NULL.
    var isOptional: Bool { type.wrappedInOptional != nil }
}

extension TypeSyntax {
    /// The wrapped type of `T?` or `Optional<T>`, else `nil`.
    var wrappedInOptional: TypeSyntax? {
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let identifier = self.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return Syntax(argument.argument).as(TypeSyntax.self)  // TypeSyntax in swift-syntax 600, a choice later
        }
        return nil
    }

    /// The type's text without trivia or a `Foundation.`/`Swift.` qualifier.
    var plainName: String {
        let text = trimmedDescription
        for prefix in ["Swift.", "Foundation."] where text.hasPrefix(prefix) {
            return String(text.dropFirst(prefix.count))
        }
        return text
    }

    /// The SQLite affinity the library stores this type with, when the macro can tell from
    /// the type's name; `nil` for other types (enums, custom convertible types).
    var storedAffinity: String? {
        let base = wrappedInOptional ?? self
        if base.is(ArrayTypeSyntax.self) || base.is(DictionaryTypeSyntax.self) { return "text" }
        switch base.plainName {
        case "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return "integer"
        case "Double", "Float", "Date", "TimeInterval": return "real"
        case "String", "UUID": return "text"
        case "Data": return "blob"
        default: return nil
        }
    }

    /// Whether the syntax names a type that cannot be stored (functions, tuples,
    /// existentials, metatypes), looking inside optionals and collections.
    var isUnstorable: Bool {
        if let wrapped = wrappedInOptional { return wrapped.isUnstorable }
        if let array = self.as(ArrayTypeSyntax.self) { return array.element.isUnstorable }
        if let dictionary = self.as(DictionaryTypeSyntax.self) { return dictionary.key.isUnstorable || dictionary.value.isUnstorable }
        if let attributed = self.as(AttributedTypeSyntax.self) { return attributed.baseType.isUnstorable }
        return self.is(FunctionTypeSyntax.self) || self.is(TupleTypeSyntax.self) || self.is(SomeOrAnyTypeSyntax.self)
            || self.is(MetatypeTypeSyntax.self)
    }
}

extension AttributeSyntax {
    /// The attribute's name, without arguments.
    var name: String { attributeName.trimmedDescription }

    /// The first argument when it is a plain string literal.
    var firstStringArgument: String? {
        guard case .argumentList(let arguments) = self.arguments,
            let literal = arguments.first?.expression.as(StringLiteralExprSyntax.self),
            literal.segments.count == 1, case .stringSegment(let segment) = literal.segments.first
        else { return nil }
        return segment.content.text
    }
}

extension VariableDeclSyntax {
    /// The attribute named `name`, if the declaration has it.
    func attribute(named name: String) -> AttributeSyntax? {
        attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }.first { $0.name == name }
    }

    var isStatic: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) } }
    var isLazy: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.lazy) } }
    var isLet: Bool { bindingSpecifier.tokenKind == .keyword(.let) }
}

extension PatternBindingSyntax {
    /// Whether the binding has a getter, `get`/`set` or a body: computed, not stored.
    var isComputed: Bool {
        guard let accessorBlock else { return false }
        switch accessorBlock.accessors {
        case .getter: return true
        case .accessors(let accessors):
            return accessors.contains { accessor in
                let kind = accessor.accessorSpecifier.tokenKind
                return kind != .keyword(.willSet) && kind != .keyword(.didSet)
            }
        }
    }
}
