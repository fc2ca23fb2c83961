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

/// A fresh directory under /tmp, removed with its contents on `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/systemd-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ChildProcessError(description: "mkdtemp: \(errno)") }
        path = String(cString: made)
    }

    /// Writes `text` to `name` inside the directory and returns the path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ChildProcessError(description: "open \(file): \(errno)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw ChildProcessError(description: "write \(file): \(errno)")
        }
        return file
    }

    func remove() {
        _ = try? ChildProcess.run("/bin/rm", ["-rf", path], environment: [:])
    }
}
