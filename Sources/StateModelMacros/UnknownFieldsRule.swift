import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@StateModel(unknownFields:)`: whether a struct keeps the keys it does not declare (the default) or drops them.
enum UnknownFieldsRule: Equatable {
    case keep
    case drop

    /// What the rule means for a struct's declared properties.
    enum Resolution {
        /// The struct declares its own `UnknownFields` property, which keeps them.
        case declared
        /// The struct keeps them in this generated property.
        case generated(StoredProperty)
        /// The struct drops them and says so (`.drop`, no `UnknownFields` property).
        case dropped
        /// A diagnostic was emitted.
        case refused
    }

    /// The rule the attribute `node` names; `nil` after a diagnostic for an argument it cannot read.
    init?(of node: AttributeSyntax, in context: some MacroExpansionContext) {
        guard case .argumentList(let arguments) = node.arguments, let argument = arguments.first else {
            self = .keep
            return
        }
        let name = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        switch (argument.label?.text, name) {
        case ("unknownFields", "keep"): self = .keep
        case ("unknownFields", "drop"): self = .drop
        default:
            context.diagnose(Diagnostic(node: argument, message: StateModelDiagnostic.invalidUnknownFieldsRule))
            return nil
        }
    }

    /// What to generate for `properties`, the struct's parsed stored properties.
    func resolve(
        _ properties: [StoredProperty], attribute: AttributeSyntax, in context: some MacroExpansionContext
    ) -> Resolution {
        let declared = properties.first { if case .unknownFields = $0.kind { true } else { false } }
        switch (self, declared) {
        case (.keep, .some):
            return .declared
        case (.drop, .none):
            return .dropped
        case (.drop, .some(let property)):
            context.diagnose(
                Diagnostic(
                    node: property.node,
                    message: StateModelDiagnostic.dropsButDeclaresUnknownFields(name: property.name)
                ))
            return .refused
        case (.keep, .none):
            if let taken = properties.first(where: { $0.name == StoredProperty.generatedUnknownFieldsName }) {
                context.diagnose(Diagnostic(node: taken.node, message: StateModelDiagnostic.generatedNameTaken))
                return .refused
            }
            return .generated(StoredProperty.generatedUnknownFields())
        }
    }
}
