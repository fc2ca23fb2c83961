import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that provides `@StateModel` and its field attributes.
@main
struct StateModelMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [StateModelMacro.self, StateFieldAttributeMacro.self]
}
