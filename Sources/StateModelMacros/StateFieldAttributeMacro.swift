import SwiftSyntax
import SwiftSyntaxMacros

/// `@StateKey`, `@StateWritesNull`, `@StateCoder`, `@StateRecords` and `@StateTransient`: markers that `@StateModel`
/// reads; alone they generate nothing.
public struct StateFieldAttributeMacro: PeerMacro {
    /// Generates nothing.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
