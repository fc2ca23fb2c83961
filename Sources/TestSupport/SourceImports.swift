import Foundation

/// The repository's Swift sources and the modules they import, for tests that keep a module's dependencies in
/// their lane (the contract apart from the engine, the state libraries apart from full Foundation).
public enum SourceImports {
    /// The repository's root: this file is `Sources/TestSupport/SourceImports.swift`.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every `.swift` file under `Sources/<module>`, with its path relative to that directory, sorted.
    public static func sources(of module: String) throws -> [(file: String, text: String)] {
        let directory = repository.appendingPathComponent("Sources/\(module)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }
        return try files.sorted().map { file in
            (file, try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))
        }
    }

    /// The module names of `text`'s import declarations, also of one symbol (`import struct M.S`) or a
    /// submodule (`import M.S`).
    public static func imports(in text: String) -> [String] {
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        let kinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let position = words.firstIndex(of: "import"),
                words[..<position].allSatisfy({ $0.hasPrefix("@") || modifiers.contains($0) })
            else { return nil }
            var rest = words[(position + 1)...]
            if let kind = rest.first, kinds.contains(kind) { rest = rest.dropFirst() }
            guard let path = rest.first else { return nil }
            return String(path.split(separator: ".").first ?? path)
        }
    }
}
