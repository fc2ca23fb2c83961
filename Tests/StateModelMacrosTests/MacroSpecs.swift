import MacroTesting
import StateModelMacros
import SwiftSyntaxMacroExpansion

/// The macros as the compiler sees them: `@StateModel` may add `Decodable` and `Encodable`.
let stateModelMacros: [String: MacroSpec] = [
    "StateModel": MacroSpec(type: StateModelMacro.self, conformances: ["Decodable", "Encodable"]),
    "StateKey": MacroSpec(type: StateFieldAttributeMacro.self),
    "StateWritesNull": MacroSpec(type: StateFieldAttributeMacro.self),
    "StateCoder": MacroSpec(type: StateFieldAttributeMacro.self),
]
