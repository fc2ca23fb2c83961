import Foundation
import TestSupport
import Testing

/// Issue 29: a `@StateModel` field whose type has no direct reader, or a `@StateCoder` coder without one, is a
/// compile-time warning at the model (which then loads through `Codable`), and a model of direct types compiles
/// without one. Type-checks small files with `swiftc` against this build's modules and macro plug-in: the warning
/// comes from overload resolution in the expanded code, which the macro expansion tests do not type-check.
@Suite("Direct decoder fallback warnings")
struct DirectFallbackWarningTests {
    /// The build directory this test bundle runs from (`.build/<triple>/debug`).
    static var buildDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The compiler's diagnostics for `source`, type-checked against this build's modules. Through `runCommand`,
    /// which holds no thread of the cooperative pool: `swiftc` runs for seconds on a loaded machine, and a pool thread
    /// held that long starved the in-process servers of other tests. `PATH` is the test process's, which finds the
    /// toolchain's `swiftc`.
    static func diagnostics(_ source: String) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("direct-warning-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Probe.swift")
        try Data(source.utf8).write(to: file)
        let plugin = buildDirectory.appendingPathComponent("StateModelMacros-tool").path
        let result = try await runCommand(
            [
                "/usr/bin/env", "swiftc", "-typecheck", "-I", buildDirectory.appendingPathComponent("Modules").path,
                "-load-plugin-executable", plugin + "#StateModelMacros", file.path,
            ], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            timeout: .seconds(300))
        #expect(result.status == 0, "swiftc failed: \(result.output)")
        return result.output
    }

    static let header = "import Foundation\nimport StateCoding\nimport StateModel\n\n"

    @Test func aFieldWithoutADirectReaderIsAWarning() async throws {
        let text = try await Self.diagnostics(
            Self.header + "@StateModel\nstruct Probe {\n    var link: URL\n    var name: String\n}\n")
        #expect(text.contains("warning: 'read(_:at:)' is deprecated: this type has no direct reader"), "\(text)")
    }

    @Test func aCoderWithoutADirectReaderIsAWarning() async throws {
        let text = try await Self.diagnostics(
            Self.header + """
                enum Upper: StateFieldCoder {
                    static func decode<Key: CodingKey>(
                        from container: KeyedDecodingContainer<Key>, forKey key: Key
                    ) throws -> String {
                        try container.decode(String.self, forKey: key).uppercased()
                    }
                    static func encode<Key: CodingKey>(
                        _ value: String, to container: inout KeyedEncodingContainer<Key>, forKey key: Key
                    ) throws {
                        try container.encode(value, forKey: key)
                    }
                }

                @StateModel
                struct Probe {
                    @StateCoder(Upper.self) var name: String
                }

                """)
        #expect(text.contains("warning: 'read(with:at:)' is deprecated: this coder has no direct reader"), "\(text)")
    }

    @Test func aModelOfDirectTypesCompilesWithoutAWarning() async throws {
        let text = try await Self.diagnostics(
            Self.header + """
                struct Mode: ExtensibleEnum {
                    let rawValue: String
                    init(rawValue: String) { self.rawValue = rawValue }
                    static let knownValues: [Mode] = []
                }

                @StateModel
                struct Item {
                    var id: UUID
                    var when: Date?
                    var mode: Mode
                    var counts: [Int] = []
                    var unknownFields = UnknownFields()
                }

                @StateModel
                struct Probe {
                    var items: [Item]
                    var ratio: Double = 1
                }

                """)
        #expect(!text.contains("warning"), "\(text)")
    }
}
