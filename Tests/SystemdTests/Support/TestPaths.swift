import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Where the test binaries and scripts are.
enum TestPaths {
    /// The `SystemdTestHelper` executable next to the test binary (built by `swift build --build-tests`).
    static var helper: String { ProductPaths.executable("SystemdTestHelper") }

    /// `Tests/SystemdTests/Scripts/NAME`.
    static func script(_ name: String) -> String {
        let file = #filePath
        let support = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
        let tests = String(support[..<(support.lastIndex(of: "/") ?? support.endIndex)])
        return tests + "/Scripts/" + name
    }

    /// Whether `path` exists and is executable.
    static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }
}
