import SwiftSyntax

/// The `Draft` struct `@StoreModel` generates, as source text: the model's columns with the key
/// optional, a memberwise initializer that takes the model's defaults, and the encoder that
/// `Database.insert(_:)` binds.
struct DraftSource {
    let model: ModelDescription
    /// The model as the extension names it.
    let qualifiedTypeName: String
    /// `"public "`, `"package "` or `""`: the model's own access.
    let access: String

    var declaration: String {
        let members = [["\(access)typealias Model = \(qualifiedTypeName)"], properties, [initializer, model.encoder(access: access)]]
        return "\(access)struct Draft: SQLiteStoreCore.StoreDraft {\n\(members.joined().joined(separator: "\n"))\n}"
    }

    private var key: ModelProperty { model.primaryKey }

    /// The key's type in the draft: optional whatever it is in the model.
    private var keyType: String {
        key.isOptional ? key.type.trimmedDescription : "\(key.type.trimmedDescription)?"
    }

    private func type(of property: ModelProperty) -> String {
        property.name == key.name ? keyType : property.type.trimmedDescription
    }

    private var properties: [String] {
        var properties = model.columns.map { "\(access)var \($0.name): \(type(of: $0))" }
        if key.name != "id" {
            properties.append("\(access)var id: \(keyType) {\n    get { self.\(key.name) }\n    set { self.\(key.name) = newValue }\n}")
        }
        return properties
    }

    /// `init(id: Int64? = nil, title: String, done: Bool = false)`: the key and optional
    /// values default to `nil`, other values to the model's declared default.
    private var initializer: String {
        let parameters = model.columns.map { property in
            let defaultValue =
                property.name == key.name
                ? "nil" : property.defaultValue.map(defaultInDraft) ?? (property.isOptional ? "nil" : nil)
            return "\(property.name): \(type(of: property))" + (defaultValue.map { " = \($0)" } ?? "")
        }
        let assignments = model.columns.map { "    self.\($0.name) = \($0.name)" }
        return "\(access)init(\(parameters.joined(separator: ", "))) {\n\(assignments.joined(separator: "\n"))\n}"
    }

    /// A declared default as the draft's initializer reads it: `Self` there is the draft, so it
    /// names the model instead (`= Self.defaultTries` → `= Job.defaultTries`).
    private func defaultInDraft(_ value: ExprSyntax) -> String {
        SelfNamesModel(model: qualifiedTypeName).rewrite(value).description
    }
}

/// Rewrites `Self` to the model's name.
private final class SelfNamesModel: SyntaxRewriter {
    let model: String

    init(model: String) {
        self.model = model
        super.init()
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
        guard node.baseName.tokenKind == .keyword(.Self) else { return super.visit(node) }
        return ExprSyntax(
            node.with(
                \.baseName, .identifier(model, leadingTrivia: node.baseName.leadingTrivia, trailingTrivia: node.baseName.trailingTrivia)))
    }
}
