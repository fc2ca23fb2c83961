import TestSupport

/// The `key=value` lines `SystemdTestHelper` prints, read from a ``TestSupport/CommandResult``.
extension CommandResult {
    /// The output lines.
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// The value of the first `key=value` line with that key.
    func value(_ key: String) -> String? {
        lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }
}
