import SwiftSyntax

extension CodableGeneration {
    /// `init(stateReader:)` (`StateDirectDecodable`): one pass over the object's members, each key compared with
    /// the declared ones in declaration order and its value read by its type's own direct reader; an undeclared key
    /// kept in the unknown fields (or skipped when the struct keeps none); a key held twice refused. Then the
    /// required fields are checked and the missing ones with an initial value take it, recorded as `init(from:)`
    /// records it. Whatever the bytes, it gives what `init(from:)` gives, or throws.
    ///
    /// The locals that hold each field until the end are the property's name after an underscore; the
    /// bookkeeping names (`key`, `seenKeys0`, `skippedKeys`) have none, so no property name clashes with them.
    func directInitializer() -> DeclSyntax {
        let fields = declared
        var lines: [String] = []
        for property in fields {
            lines.append("var \(Self.local(property)): Optional<\(localType(property))> = nil")
        }
        if let unknownFields {
            lines.append("var \(Self.local(unknownFields)) = UnknownFields()")
        } else {
            lines.append("var skippedKeys: Set<String> = []")
        }
        for word in 0..<((fields.count + 63) / 64) {
            lines.append("var seenKeys\(word): UInt64 = 0")
        }
        lines.append("try reader.beginObject()")
        var branches: [String] = []
        for (index, property) in fields.enumerated() {
            let key = Self.literal(property.key)
            let read: String
            switch property.kind {
            case .optional(let wrapped, _):
                read = "try reader.readIfPresent(\(wrapped.trimmedDescription).self, at: \(key))"
            case .defaulted:
                read = "try reader.readIfPresent(\(property.type.trimmedDescription).self, at: \(key))"
            case .coded(let coder):
                read = "try reader.read(with: \(Self.typeName(coder)).self, at: \(key))"
            case .required, .unknownFields:
                read = "try reader.read(\(property.type.trimmedDescription).self, at: \(key))"
            }
            branches.append(
                "if key.matches(\(key)) {\n    try reader.claim(key, bit: \(index % 64), of: &seenKeys\(index / 64))\n"
                    + "    \(Self.local(property)) = \(read)\n}")
        }
        let undeclared =
            unknownFields.map { "try reader.keepUnknown(key, in: &\(Self.local($0)))" }
            ?? "try reader.skipUnknown(key, skipped: &skippedKeys)"
        let dispatch =
            branches.isEmpty ? undeclared : branches.joined(separator: " else ") + " else {\n    \(undeclared)\n}"
        lines.append("while let key = try reader.nextKey() {\n" + Self.indent([dispatch]) + "\n}")
        for property in properties {
            let name = "self.\(Self.identifier(property.name))"
            let local = Self.local(property)
            let key = Self.literal(property.key)
            switch property.kind {
            case .optional:
                lines.append("\(name) = \(local)")
            case .defaulted(let defaultValue):
                lines.append(
                    "if let \(local) {\n    \(name) = \(local)\n} else {\n"
                        + "    \(name) = reader.defaulted(\(defaultValue.trimmedDescription), \(key))\n}")
            case .required, .coded:
                lines.append("\(name) = try reader.required(\(local), \(key))")
            case .unknownFields:
                lines.append("\(name) = \(local)")
            }
        }
        return DeclSyntax(
            stringLiteral: "\(access)init(stateReader reader: inout StateDirectReader) throws {\n" + Self.indent(lines)
                + "\n}")
    }

    /// The type a field's local holds until the end: the wrapped type of an optional (the local is then the
    /// property's type itself), else the property's type.
    private func localType(_ property: StoredProperty) -> String {
        if case .optional(let wrapped, _) = property.kind { return wrapped.trimmedDescription }
        return property.type.trimmedDescription
    }

    /// `_name`: the local that holds a field in `init(stateReader:)`.
    private static func local(_ property: StoredProperty) -> String {
        "_" + property.name
    }
}

extension CodableGeneration {
    /// `write(stateWriter:)` (`StateDirectEncodable`): the bytes `encode(to:)` gives through StateStore's encoder,
    /// written straight: the declared members in the order of their keys' UTF-8 bytes (an optional left out when
    /// `nil` unless it writes `null`), the unknown fields merged in where their keys belong by the writer.
    func directWriteFunction() -> DeclSyntax {
        let keys = declared.map { Self.literal($0.key) }.joined(separator: ", ")
        var lines: [String] = []
        if let unknownFields {
            lines.append(
                "writer.beginObject(keeping: self.\(Self.identifier(unknownFields.name)), declared: [\(keys)])")
        } else {
            lines.append("writer.beginObject()")
        }
        for property in declared.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let key = Self.literal(property.key)
            let value = "self.\(Self.identifier(property.name))"
            switch property.kind {
            case .optional(_, writesNull: false):
                lines.append(
                    "if let value = \(value) {\n    try writer.member(\(key))\n    try writer.write(value)\n}")
            case .coded(let coder):
                lines.append(
                    "try writer.member(\(key))\ntry writer.write(\(value), with: \(Self.typeName(coder)).self)")
            default:
                lines.append("try writer.member(\(key))\ntry writer.write(\(value))")
            }
        }
        lines.append("try writer.endObject()")
        return DeclSyntax(
            stringLiteral: "\(access)func write(stateWriter writer: inout StateDirectWriter) throws {\n"
                + Self.indent(lines) + "\n}")
    }
}
