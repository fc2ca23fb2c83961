import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// One stored instance property of a `@StateModel` struct, as the generated code reads and writes it.
struct StoredProperty {
    /// How the property is read and written.
    enum Kind {
        /// Required: `decode`.
        case required
        /// Optional: `decodeIfPresent`; `nil` left out, or written as `null` when `writesNull`.
        case optional(wrapped: TypeSyntax, writesNull: Bool)
        /// Has an initial value: `decodeIfPresent`, else the value, recorded as defaulted.
        case defaulted(ExprSyntax)
        /// Read and written by a `StateFieldCoder`.
        case coded(coder: ExprSyntax)
        /// The `UnknownFields` that keeps the undeclared keys.
        case unknownFields
    }

    /// The property's name, without backticks.
    let name: String
    /// The key in the file.
    let key: String
    /// The written type; `UnknownFields` for the unknown-fields property written without one.
    let type: TypeSyntax
    /// How it is read and written.
    let kind: Kind
    /// `let` (no default allowed) or `var`.
    let isLet: Bool
    /// The initial value as written, for the memberwise initializer.
    let initialValue: ExprSyntax?
    /// The declaration, where diagnostics about the property point.
    let node: VariableDeclSyntax
    /// With `@StateRecords`: the element type of the array of independent records.
    var recordElement: TypeSyntax? = nil

    /// The name of the `UnknownFields` property `@StateModel` adds to a struct that declares none.
    static let generatedUnknownFieldsName = "unknownFields"

    /// The property `@StateModel` adds to a struct that declares no `UnknownFields` property:
    /// `var unknownFields = UnknownFields()`.
    static func generatedUnknownFields() -> StoredProperty {
        let declaration = VariableDeclSyntax(
            DeclSyntax(stringLiteral: "var \(generatedUnknownFieldsName) = UnknownFields()"))!
        return StoredProperty(
            name: generatedUnknownFieldsName, key: generatedUnknownFieldsName, type: "UnknownFields",
            kind: .unknownFields, isLet: false, initialValue: "UnknownFields()", node: declaration)
    }

    /// The stored instance properties of `members`, in order; `nil` when a diagnostic was emitted.
    static func parse(_ members: MemberBlockItemListSyntax, in context: some MacroExpansionContext) -> [StoredProperty]?
    {
        var properties: [StoredProperty] = []
        var failed = false
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { isStaticModifier($0) }) { continue }
            if isTransient(variable) {
                // Neither read nor written: its initial value is all the generated code relies on.
                if !checkTransient(variable, in: context) { failed = true }
                continue
            }
            if let property = parse(variable, in: context) {
                properties.append(property)
            } else {
                failed = true
            }
        }
        if !failed { failed = !checkUnknownFields(properties, in: context) }
        if !failed { failed = !checkKeys(properties, in: context) }
        return failed ? nil : properties
    }

    /// The property `variable` declares; `nil` after a diagnostic.
    private static func parse(
        _ variable: VariableDeclSyntax, in context: some MacroExpansionContext
    ) -> StoredProperty? {
        guard variable.bindings.count == 1, let binding = variable.bindings.first else {
            context.diagnose(Diagnostic(node: variable, message: StateModelDiagnostic.multipleBindings))
            return nil
        }
        guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
            context.diagnose(Diagnostic(node: binding.pattern, message: StateModelDiagnostic.unsupportedPattern))
            return nil
        }
        let name = pattern.identifier.text.trimmingCharacters(in: "`")
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        if let accessors = binding.accessorBlock, isComputed(accessors) {
            context.diagnose(Diagnostic(node: binding, message: StateModelDiagnostic.computedProperty(name: name)))
            return nil
        }
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
            context.diagnose(Diagnostic(node: variable, message: StateModelDiagnostic.lazyProperty(name: name)))
            return nil
        }
        var attributes = FieldAttributes()
        for element in variable.attributes {
            guard case .attribute(let attribute) = element else { continue }
            let attributeName = attribute.attributeName.trimmedDescription
            guard attributes.read(attribute, named: attributeName, in: context) else {
                if attributes.failed { return nil }
                context.diagnose(
                    Diagnostic(
                        node: attribute,
                        message: StateModelDiagnostic.propertyWrapper(name: name, wrapper: attributeName)))
                return nil
            }
        }
        let initialValue = binding.initializer?.value
        let annotated = binding.typeAnnotation?.type
        let isUnknownFields =
            annotated.map { isUnknownFieldsType($0) } ?? initialValue.map { isUnknownFieldsInitializer($0) } ?? false
        if isUnknownFields {
            if attributes.isSet {
                context.diagnose(
                    Diagnostic(node: variable, message: StateModelDiagnostic.attributeOnUnknownFields(name: name)))
                return nil
            }
            if isLet {
                context.diagnose(
                    Diagnostic(
                        node: variable.bindingSpecifier, message: StateModelDiagnostic.unknownFieldsIsLet(name: name)))
                return nil
            }
            return StoredProperty(
                name: name, key: name, type: annotated ?? "UnknownFields", kind: .unknownFields, isLet: false,
                initialValue: initialValue, node: variable)
        }
        if isLet, initialValue != nil {
            context.diagnose(
                Diagnostic(
                    node: variable.bindingSpecifier, message: StateModelDiagnostic.letWithInitialValue(name: name),
                    fixIt: FixIt(
                        message: StateModelFixIt(message: "read it with this value as its default"),
                        changes: [
                            .replace(
                                oldNode: Syntax(variable.bindingSpecifier),
                                newNode: Syntax(variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))))
                        ])))
            return nil
        }
        guard let type = annotated else {
            context.diagnose(missingType(name: name, pattern: pattern, initialValue: initialValue))
            return nil
        }
        let key = attributes.key ?? name
        let wrapped = optionalWrapped(type)
        let kind: Kind
        if let coder = attributes.coder {
            kind = .coded(coder: coder)
        } else if let wrapped {
            if let initialValue, !initialValue.is(NilLiteralExprSyntax.self) {
                context.diagnose(
                    Diagnostic(node: initialValue, message: StateModelDiagnostic.defaultOnOptional(name: name)))
                return nil
            }
            kind = .optional(wrapped: wrapped, writesNull: attributes.writesNull)
        } else if let initialValue {
            kind = .defaulted(initialValue)
        } else {
            kind = .required
        }
        if attributes.writesNull, wrapped == nil {
            context.diagnose(
                Diagnostic(node: variable, message: StateModelDiagnostic.writesNullOnNonOptional(name: name)))
            return nil
        }
        var recordElement: TypeSyntax?
        if attributes.records {
            if attributes.coder != nil {
                context.diagnose(Diagnostic(node: variable, message: StateModelDiagnostic.recordsWithCoder(name: name)))
                return nil
            }
            guard let element = arrayElement(wrapped ?? type) else {
                context.diagnose(
                    Diagnostic(node: variable, message: StateModelDiagnostic.recordsNotAnArray(name: name)))
                return nil
            }
            recordElement = element
        }
        return StoredProperty(
            name: name, key: key, type: type, kind: kind, isLet: isLet, initialValue: initialValue, node: variable,
            recordElement: recordElement)
    }

    /// Whether `variable` is marked `@StateTransient`.
    private static func isTransient(_ variable: VariableDeclSyntax) -> Bool {
        variable.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            let name = attribute.attributeName.trimmedDescription
            return name == "StateTransient" || name == "StateModel.StateTransient"
        }
    }

    /// A `@StateTransient` property has one binding, an initial value and no other attribute of ours; false after
    /// a diagnostic.
    private static func checkTransient(
        _ variable: VariableDeclSyntax, in context: some MacroExpansionContext
    ) -> Bool {
        guard variable.bindings.count == 1, let binding = variable.bindings.first else {
            context.diagnose(Diagnostic(node: variable, message: StateModelDiagnostic.multipleBindings))
            return false
        }
        let name = binding.pattern.trimmedDescription.trimmingCharacters(in: "`")
        var attributes = FieldAttributes()
        for element in variable.attributes {
            guard case .attribute(let attribute) = element else { continue }
            _ = attributes.read(attribute, named: attribute.attributeName.trimmedDescription, in: context)
            if attributes.failed { return false }
        }
        if attributes.isSet {
            context.diagnose(
                Diagnostic(node: variable, message: StateModelDiagnostic.transientWithAttribute(name: name)))
            return false
        }
        if binding.initializer == nil {
            context.diagnose(
                Diagnostic(node: variable, message: StateModelDiagnostic.transientWithoutInitialValue(name: name)))
            return false
        }
        return true
    }

    /// The missing-type error, with a fix-it when the initial value is a plain literal.
    private static func missingType(
        name: String, pattern: IdentifierPatternSyntax, initialValue: ExprSyntax?
    ) -> Diagnostic {
        let literalType: String? =
            switch initialValue.map({ Syntax($0).kind }) {
            case .booleanLiteralExpr: "Bool"
            case .integerLiteralExpr: "Int"
            case .floatLiteralExpr: "Double"
            case .stringLiteralExpr: "String"
            default: nil
            }
        guard let literalType else {
            return Diagnostic(node: pattern, message: StateModelDiagnostic.missingType(name: name))
        }
        let annotated = pattern.with(\.identifier, pattern.identifier.with(\.trailingTrivia, []))
        return Diagnostic(
            node: pattern, message: StateModelDiagnostic.missingType(name: name),
            fixIt: FixIt(
                message: StateModelFixIt(message: "write ': \(literalType)'"),
                changes: [
                    .replace(
                        oldNode: Syntax(pattern),
                        newNode: Syntax(
                            PatternSyntax("\(annotated): \(raw: literalType)").with(\.trailingTrivia, .space)))
                ]))
    }

    /// Whether the type is optional in a way the memberwise initializer can default to `nil`.
    var isOptional: Bool {
        if case .optional = kind { return true }
        return false
    }

    private static func isStaticModifier(_ modifier: DeclModifierSyntax) -> Bool {
        modifier.name.tokenKind == .keyword(.static) || modifier.name.tokenKind == .keyword(.class)
    }

    /// A getter or get/set/modify accessors; `willSet`/`didSet` observers keep a property stored.
    private static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { accessor in
                let kind = accessor.accessorSpecifier.tokenKind
                return kind != .keyword(.willSet) && kind != .keyword(.didSet)
            }
        }
    }

    private static func isUnknownFieldsType(_ type: TypeSyntax) -> Bool {
        let text = type.trimmedDescription
        return text == "UnknownFields" || text == "StateStore.UnknownFields" || text == "StateCoding.UnknownFields"
    }

    private static func isUnknownFieldsInitializer(_ value: ExprSyntax) -> Bool {
        guard let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty else { return false }
        let callee = call.calledExpression.trimmedDescription
        return callee == "UnknownFields" || callee == "StateStore.UnknownFields"
            || callee == "StateCoding.UnknownFields"
    }

    /// `T` for `T?`, `T!` and `Optional<T>`.
    private static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
            let argument = arguments.first
        {
            return TypeSyntax(argument.argument.as(TypeSyntax.self))
        }
        return nil
    }

    /// `E` for `[E]` and `Array<E>`.
    private static func arrayElement(_ type: TypeSyntax) -> TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Array",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
            let argument = arguments.first
        {
            return TypeSyntax(argument.argument.as(TypeSyntax.self))
        }
        return nil
    }

    /// At most one `UnknownFields`.
    private static func checkUnknownFields(
        _ properties: [StoredProperty], in context: some MacroExpansionContext
    ) -> Bool {
        let unknown = properties.filter { if case .unknownFields = $0.kind { true } else { false } }
        guard unknown.count > 1 else { return true }
        context.diagnose(
            Diagnostic(node: unknown[1].node, message: StateModelDiagnostic.secondUnknownFields(name: unknown[1].name)))
        return false
    }

    /// No two properties under one key.
    private static func checkKeys(
        _ properties: [StoredProperty], in context: some MacroExpansionContext
    ) -> Bool {
        var seen: Set<String> = []
        for property in properties {
            if case .unknownFields = property.kind { continue }
            if !seen.insert(property.key).inserted {
                context.diagnose(
                    Diagnostic(node: property.node, message: StateModelDiagnostic.duplicateKey(key: property.key)))
                return false
            }
        }
        return true
    }
}

/// The `@StateKey`, `@StateWritesNull`, `@StateCoder` and `@StateRecords` of one property.
struct FieldAttributes {
    var key: String?
    var writesNull = false
    var coder: ExprSyntax?
    var records = false
    var failed = false

    var isSet: Bool { key != nil || writesNull || coder != nil || records }

    /// Reads `attribute` when it is one of ours; false for any other attribute (or after a diagnostic: `failed`).
    mutating func read(
        _ attribute: AttributeSyntax, named name: String, in context: some MacroExpansionContext
    ) -> Bool {
        switch name {
        case "StateKey", "StateModel.StateKey":
            guard case .argumentList(let arguments) = attribute.arguments, arguments.count == 1,
                let literal = arguments.first?.expression.as(StringLiteralExprSyntax.self),
                let value = literal.representedLiteralValue, !value.isEmpty
            else {
                context.diagnose(Diagnostic(node: attribute, message: StateModelDiagnostic.invalidKey))
                failed = true
                return false
            }
            key = value
            return true
        case "StateWritesNull", "StateModel.StateWritesNull":
            writesNull = true
            return true
        case "StateRecords", "StateModel.StateRecords":
            records = true
            return true
        case "StateCoder", "StateModel.StateCoder":
            guard case .argumentList(let arguments) = attribute.arguments, let first = arguments.first else {
                context.diagnose(Diagnostic(node: attribute, message: StateModelDiagnostic.invalidCoder))
                failed = true
                return false
            }
            coder = first.expression.trimmed
            return true
        default:
            return false
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
