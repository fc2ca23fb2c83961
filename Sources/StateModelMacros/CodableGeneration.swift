import SwiftSyntax
import SwiftSyntaxBuilder

/// The declarations `@StateModel` adds to a struct, built from its stored properties.
struct CodableGeneration {
    let properties: [StoredProperty]
    /// `public `, `package ` or nothing: the struct's access level, for the generated members.
    let access: String
    /// `@StateModel(unknownFields: .drop)`: the keys the struct does not declare are recorded as dropped.
    var dropsUndeclaredKeys = false

    var unknownFields: StoredProperty? {
        properties.first { if case .unknownFields = $0.kind { true } else { false } }
    }

    var declared: [StoredProperty] {
        properties.filter { if case .unknownFields = $0.kind { false } else { true } }
    }

    /// `StateCodingKeys`: the key type of the one container `init(from:)` opens. A declared key is made with
    /// `init(_:)`; `init?(stringValue:)`, which `allKeys` calls for every key of the object, accepts only the keys
    /// the model does not declare, so that `allKeys` lists just the unknown ones (usually none: no array to build).
    func codingKeys() -> DeclSyntax {
        let keys = declared.map { Self.literal($0.key) }
        let filter =
            keys.isEmpty
            ? "self.stringValue = stringValue"
            : "switch stringValue {\ncase \(keys.joined(separator: ", ")):\n    return nil\ndefault:\n"
                + "    self.stringValue = stringValue\n}"
        let lines = [
            "let stringValue: String",
            "var intValue: Int? {\n    nil\n}",
            "init(_ declared: String) {\n    self.stringValue = declared\n}",
            "init?(stringValue: String) {\n" + Self.indent([filter]) + "\n}",
            "init?(intValue: Int) {\n    nil\n}",
        ]
        return DeclSyntax(
            stringLiteral: "private struct StateCodingKeys: CodingKey {\n" + Self.indent(lines, separator: "\n\n")
                + "\n}")
    }

    /// `init(from:)`: one container; declared keys decoded in order, then the keys it does not declare kept.
    func decodeInitializer() -> DeclSyntax {
        initializer(label: "from") { property, key in
            switch property.kind {
            case .required:
                return "try container.decode(\(property.type.trimmedDescription).self, forKey: \(key))"
            case .optional(let wrapped, _):
                return "try container.decodeIfPresent(\(wrapped.trimmedDescription).self, forKey: \(key))"
            case .defaulted(let defaultValue):
                // The concrete type's own decodeIfPresent (Bool, Int, String have non-generic ones), and the
                // default recorded only when it is used.
                return "try container.decodeIfPresent(\(property.type.trimmedDescription).self, forKey: \(key))\n"
                    + "    ?? container.defaulted(\(defaultValue.trimmedDescription), forKey: \(key), in: decoder)"
            case .coded, .unknownFields:
                return nil
            }
        }
    }

    /// `init(salvaging:)` (`StateSalvageable`): the same container and keys as `init(from:)`, each field read
    /// with the `salvage` method for its kind, so that a field with a default or an optional takes it when its value
    /// cannot be read, and a `@StateRecords` array drops the records that cannot be read.
    func salvageInitializer() -> DeclSyntax {
        initializer(label: "salvaging") { property, key in
            let element = property.recordElement?.trimmedDescription
            switch property.kind {
            case .required:
                if let element { return "try container.salvageRecords(\(element).self, forKey: \(key), in: decoder)" }
                return "try container.salvage(\(property.type.trimmedDescription).self, forKey: \(key), in: decoder)"
            case .optional(let wrapped, _):
                if let element {
                    return "container.salvageRecordsIfPresent(\(element).self, forKey: \(key), in: decoder)"
                }
                return "container.salvageIfPresent(\(wrapped.trimmedDescription).self, forKey: \(key), in: decoder)"
            case .defaulted(let defaultValue):
                let method = element == nil ? "salvage" : "salvageRecords"
                return "container.\(method)(\n    \(element ?? property.type.trimmedDescription).self, forKey: \(key), "
                    + "defaultingTo: \(defaultValue.trimmedDescription), in: decoder)"
            case .coded, .unknownFields:
                return nil
            }
        }
    }

    /// An initializer `init(<label> decoder:)` that opens the one container, reads each declared property with
    /// `value(property, key)` (a `@StateCoder` property with its coder), then keeps the undeclared keys.
    private func initializer(label: String, value: (StoredProperty, String) -> String?) -> DeclSyntax {
        var lines = ["let container = try decoder.container(keyedBy: StateCodingKeys.self)"]
        for property in declared {
            let key = "StateCodingKeys(\(Self.literal(property.key)))"
            let read: String
            if case .coded(let coder) = property.kind {
                read = "try \(Self.typeName(coder)).decode(from: container, forKey: \(key))"
            } else if let generated = value(property, key) {
                read = generated
            } else {
                continue
            }
            lines.append("self.\(Self.identifier(property.name)) = \(read)")
        }
        if let unknownFields {
            lines.append(
                "self.\(Self.identifier(unknownFields.name)) = try UnknownFields(undeclaredKeysOf: container, in: decoder)"
            )
        } else if dropsUndeclaredKeys {
            lines.append("container.recordUndeclaredKeysDropped(in: decoder)")
        }
        return DeclSyntax(
            stringLiteral: "\(access)init(\(label) decoder: any Decoder) throws {\n" + Self.indent(lines) + "\n}")
    }

    /// `encode(to:)`: the kept keys first, except any the type declares, then the declared ones in the order of
    /// their keys' UTF-8 bytes, the order a state file is written in: an encoder that writes as it goes (StateStore's)
    /// then has nothing to put in order for a record without unknown fields.
    func encodeFunction() -> DeclSyntax {
        var lines = ["var container = encoder.container(keyedBy: AnyCodingKey.self)"]
        if let unknownFields {
            let keys = declared.map { Self.literal($0.key) }.joined(separator: ", ")
            lines.append(
                "try self.\(Self.identifier(unknownFields.name)).encode(to: &container, skipping: [\(keys)])")
        }
        for property in declared.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let key = "AnyCodingKey(\(Self.literal(property.key)))"
            let value = "self.\(Self.identifier(property.name))"
            switch property.kind {
            case .optional(_, writesNull: false):
                lines.append("try container.encodeIfPresent(\(value), forKey: \(key))")
            case .coded(let coder):
                lines.append("try \(Self.typeName(coder)).encode(\(value), to: &container, forKey: \(key))")
            default:
                lines.append("try container.encode(\(value), forKey: \(key))")
            }
        }
        return DeclSyntax(
            stringLiteral: "\(access)func encode(to encoder: any Encoder) throws {\n" + Self.indent(lines) + "\n}")
    }

    /// The memberwise initializer: every stored property in order, with its initial value as the default,
    /// optionals `nil`, unknown fields empty.
    func memberwiseInitializer() -> DeclSyntax {
        let parameters = properties.map { property -> String in
            var parameter = "\(Self.identifier(property.name)): \(property.type.trimmedDescription)"
            if let initialValue = property.initialValue {
                parameter += " = \(initialValue.trimmedDescription)"
            } else if case .unknownFields = property.kind {
                parameter += " = UnknownFields()"
            } else if property.isOptional, !property.isLet {
                parameter += " = nil"
            }
            return parameter
        }
        let body = properties.map { "self.\(Self.identifier($0.name)) = \(Self.identifier($0.name))" }
        return DeclSyntax(
            stringLiteral: "\(access)init(\n" + Self.indent(parameters, separator: ",\n") + "\n) {\n"
                + Self.indent(body) + "\n}")
    }

    /// A Swift string literal for `text`.
    static func literal(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }

    /// `name`, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        let keywords: Set<String> = [
            "default", "case", "class", "struct", "enum", "protocol", "extension", "func", "var", "let", "import",
            "return", "if", "else", "for", "while", "in", "switch", "where", "repeat", "do", "catch", "throw",
            "operator", "init", "deinit", "subscript", "static", "public", "private", "internal", "fileprivate",
            "break", "continue", "fallthrough", "guard", "defer", "is", "as", "try", "super", "self", "Self",
            "nil", "true", "false", "associatedtype", "typealias", "inout", "any", "some",
        ]
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// `Coder` for `Coder.self`.
    static func typeName(_ coder: ExprSyntax) -> String {
        if let access = coder.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "self",
            let base = access.base
        {
            return base.trimmedDescription
        }
        return "(\(coder.trimmedDescription))"
    }

    static func indent(_ lines: [String], separator: String = "\n") -> String {
        lines.map {
            $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        }
        .joined(separator: separator)
    }
}
