import MacroTesting
import StateModelMacros
import SwiftSyntaxMacroExpansion

/// The macros as the compiler sees them: `@StateModel` may add `Decodable`, `Encodable`, `StateSalvageable`,
/// `StateDirectDecodable` and `StateDirectEncodable`.
let stateModelMacros: [String: MacroSpec] = [
    "StateModel": MacroSpec(
        type: StateModelMacro.self,
        conformances: [
            "Decodable", "Encodable", "StateSalvageable", "StateDirectDecodable", "StateDirectEncodable",
        ]),
    "StateRecords": MacroSpec(type: StateFieldAttributeMacro.self),
    "StateKey": MacroSpec(type: StateFieldAttributeMacro.self),
    "StateWritesNull": MacroSpec(type: StateFieldAttributeMacro.self),
    "StateCoder": MacroSpec(type: StateFieldAttributeMacro.self),
    "StateTransient": MacroSpec(type: StateFieldAttributeMacro.self),
]
