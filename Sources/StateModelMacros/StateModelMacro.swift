import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@StateModel`: a struct's `init(from:)`, `init(salvaging:)`, `init(stateReader:)`, `encode(to:)`,
/// `write(stateWriter:)` and memberwise initializer, its `Codable` conformance unless it names `Decodable` or
/// `Encodable` itself, `StateSalvageable` and `StateDirectDecodable` when it decodes and `StateDirectEncodable`
/// when it encodes.
public struct StateModelMacro: MemberMacro, ExtensionMacro {
    /// The generated members.
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: StateModelDiagnostic.notAStruct))
            return []
        }
        let members = structDecl.memberBlock.members
        guard checkHandWritten(members, in: context),
            let rule = UnknownFieldsRule(of: node, in: context),
            var properties = StoredProperty.parse(members, in: context)
        else { return [] }
        let access = accessPrefix(of: structDecl)
        var generated: [DeclSyntax] = []
        switch rule.resolve(properties, attribute: node, in: context) {
        case .refused:
            return []
        case .declared, .dropped:
            break
        case .generated(let property):
            // No key the struct does not declare is lost unless it says so: it gets the storage it did not write.
            properties.append(property)
            generated.append(DeclSyntax(stringLiteral: "\(access)var unknownFields = UnknownFields()"))
        }
        let generation = CodableGeneration(
            properties: properties, access: access, dropsUndeclaredKeys: rule == .drop)
        let halves = codableHalves(of: structDecl)
        if !members.contains(where: { $0.decl.is(InitializerDeclSyntax.self) }) {
            generated.append(generation.memberwiseInitializer())
        }
        if halves.decodable {
            generated.append(generation.codingKeys())
            generated.append(generation.decodeInitializer())
            generated.append(generation.salvageInitializer())
            generated.append(generation.directInitializer())
        }
        if halves.encodable {
            generated.append(generation.encodeFunction())
            generated.append(generation.directWriteFunction())
        }
        return generated
    }

    /// `Decodable` and `Encodable` when the struct names neither itself (nor `Codable`).
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else { return [] }
        let names = protocols.map { $0.trimmedDescription }
        let decoding = ["StateSalvageable", "StateDirectDecodable"]
        let encoding = ["StateDirectEncodable"]
        let halves = codableHalves(of: structDecl)
        var conformances = namesCodable(structDecl) ? [] : names.filter { !(decoding + encoding).contains($0) }
        if halves.decodable { conformances += decoding.filter { names.contains($0) } }
        if halves.encodable { conformances += encoding.filter { names.contains($0) } }
        guard !conformances.isEmpty else { return [] }
        return [
            try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}")
        ]
    }

    /// Which halves to generate: those the struct names, or both when it names none.
    private static func codableHalves(of structDecl: StructDeclSyntax) -> (decodable: Bool, encodable: Bool) {
        let names = inheritedNames(structDecl)
        if names.contains("Codable") { return (true, true) }
        let decodable = names.contains("Decodable")
        let encodable = names.contains("Encodable")
        return decodable || encodable ? (decodable, encodable) : (true, true)
    }

    private static func namesCodable(_ structDecl: StructDeclSyntax) -> Bool {
        !inheritedNames(structDecl).isDisjoint(with: ["Codable", "Decodable", "Encodable"])
    }

    private static func inheritedNames(_ structDecl: StructDeclSyntax) -> Set<String> {
        Set(
            (structDecl.inheritanceClause?.inheritedTypes ?? []).map {
                let text = $0.type.trimmedDescription
                return text.hasPrefix("Swift.") ? String(text.dropFirst(6)) : text
            })
    }

    /// `public `, `package ` or nothing.
    private static func accessPrefix(of structDecl: StructDeclSyntax) -> String {
        for modifier in structDecl.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// A hand-written `init(from:)`, `encode(to:)` or `CodingKeys` would clash with, or silently differ from, the
    /// generated code.
    private static func checkHandWritten(
        _ members: MemberBlockItemListSyntax, in context: some MacroExpansionContext
    ) -> Bool {
        for member in members {
            let decl = member.decl
            var clash: String?
            if let enumDecl = decl.as(EnumDeclSyntax.self), enumDecl.name.text == "CodingKeys" {
                context.diagnose(Diagnostic(node: decl, message: StateModelDiagnostic.handWrittenCodingKeys))
                return false
            }
            if let initializer = decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.map({ $0.firstName.text }) == ["from"]
            {
                clash = "init(from:)"
            } else if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.map({ $0.firstName.text }) == ["to"]
            {
                clash = "encode(to:)"
            }
            if let clash {
                context.diagnose(Diagnostic(node: decl, message: StateModelDiagnostic.handWritten(member: clash)))
                return false
            }
        }
        return true
    }
}
