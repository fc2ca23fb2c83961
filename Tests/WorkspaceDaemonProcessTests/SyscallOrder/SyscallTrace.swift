import Foundation

/// One system call of an `strace -f -yy` log: its name, its whole text (arguments and result), and the lines of
/// the log where it began and where it returned (a call other threads interrupted spans two lines).
struct TracedCall: CustomStringConvertible {
    let name: String
    let text: String
    let start: Int
    let end: Int

    /// The number after ` = ` (`-1` for a failure), or `nil` (`= ?`, a call that never returned).
    var result: Int? {
        guard let equals = text.range(of: " = ", options: .backwards) else { return nil }
        return Int(text[equals.upperBound...].prefix { $0 == "-" || $0.isNumber })
    }

    /// Whether the call returned success (a non-negative result).
    var succeeded: Bool { (result ?? -1) >= 0 }

    /// What `-yy` shows for the first argument when it is a descriptor (`5</state/workspace.json>` gives
    /// `/state/workspace.json`, a socket `UNIX-STREAM:[…]`); `nil` otherwise.
    var descriptorPath: String? {
        guard let open = text.firstIndex(of: "(") else { return nil }
        let argument = text[text.index(after: open)...]
        let digits = argument.prefix { $0.isNumber }
        guard !digits.isEmpty, argument.dropFirst(digits.count).first == "<" else { return nil }
        let inside = argument.dropFirst(digits.count + 1)
        var index = inside.startIndex
        while index < inside.endIndex {
            let next = inside.index(after: index)
            if inside[index] == ">" && (next == inside.endIndex || [",", ")", " "].contains(inside[next])) {
                return String(inside[..<index])
            }
            index = next
        }
        return nil
    }

    /// The quoted string arguments, in order, unescaped for `\"` and `\\` only (enough for paths).
    var strings: [String] {
        var result: [String] = []
        var current: String?
        var escaped = false
        for character in text {
            if var string = current {
                if escaped {
                    string.append(character)
                    escaped = false
                    current = string
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    result.append(string)
                    current = nil
                } else {
                    string.append(character)
                    current = string
                }
            } else if character == "\"" {
                current = ""
            }
        }
        return result
    }

    var description: String { "line \(start + 1): \(text)" }
}

/// The calls of an `strace -f -yy -o FILE` log in the order they began.
struct SyscallTrace {
    let calls: [TracedCall]

    init(log: String) {
        var calls: [TracedCall] = []
        var pending: [Int: (name: String, text: String, start: Int)] = [:]
        for (index, line) in log.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let pidText = line.prefix { $0.isNumber }
            guard let pid = Int(pidText) else { continue }
            let rest = line.dropFirst(pidText.count).drop { $0 == " " }
            if rest.hasPrefix("<... ") {
                guard let resumed = rest.range(of: " resumed>"), let begun = pending.removeValue(forKey: pid) else {
                    continue
                }
                let text = begun.text + rest[resumed.upperBound...]
                calls.append(TracedCall(name: begun.name, text: text, start: begun.start, end: index))
            } else if rest.hasPrefix("+++") || rest.hasPrefix("---") {
                continue
            } else if rest.hasSuffix("<unfinished ...>") {
                let text = String(rest.dropLast("<unfinished ...>".count))
                pending[pid] = (String(rest.prefix { $0 != "(" }), text, index)
            } else {
                calls.append(
                    TracedCall(name: String(rest.prefix { $0 != "(" }), text: String(rest), start: index, end: index))
            }
        }
        // A call still unfinished when the log ended (exit_group never returns) counts as begun and ended there.
        for (_, begun) in pending {
            calls.append(TracedCall(name: begun.name, text: begun.text, start: begun.start, end: begun.start))
        }
        self.calls = calls.sorted { $0.start < $1.start }
    }

    /// One durable replace of a file in `directory`: the rename of a temporary file over it, the temporary
    /// file's last write and its fsync before the rename, and the directory's fsync after it.
    struct Replace: CustomStringConvertible {
        let target: String
        let rename: TracedCall
        let lastWrite: TracedCall?
        let fileFsync: TracedCall?
        let directoryFsync: TracedCall?

        /// What breaks the protocol, or `nil`.
        var problem: String? {
            guard let fileFsync else { return "the temporary file was not fsynced before \(rename)" }
            if let lastWrite, fileFsync.start < lastWrite.end {
                return "the temporary file was written after its fsync: \(lastWrite) after \(fileFsync)"
            }
            guard directoryFsync != nil else { return "the directory was not fsynced after \(rename)" }
            return nil
        }

        /// The log line from which the new content is durable (the directory fsync returned).
        var durableFrom: Int? { directoryFsync?.end }

        var description: String { "replace of \(target) (\(rename))" }
    }

    private static let renames: Set = ["rename", "renameat", "renameat2"]
    private static let writes: Set = ["write", "pwrite64", "writev", "pwritev", "pwritev2"]
    private static let fsyncs: Set = ["fsync", "fdatasync"]

    /// Every successful rename into `directory` or a directory under it, with the calls that make it durable or not
    /// (the fsync of the directory the new name is in).
    func replaces(in directory: String) -> [Replace] {
        calls.filter { Self.renames.contains($0.name) && $0.succeeded }.compactMap { rename in
            let paths = rename.strings
            guard paths.count == 2, paths[1].hasPrefix(directory + "/") else { return nil }
            let source = paths[0]
            let lastWrite = calls.last {
                Self.writes.contains($0.name) && $0.descriptorPath == source && $0.start < rename.start
            }
            let fileFsync = calls.last {
                Self.fsyncs.contains($0.name) && $0.descriptorPath == source && $0.succeeded
                    && $0.end < rename.start
            }
            // The directory the name is in: the state directory's own, or a directory under it (the history's).
            let targetDirectory = (paths[1] as NSString).deletingLastPathComponent
            let directoryFsync = calls.first {
                Self.fsyncs.contains($0.name) && $0.descriptorPath == targetDirectory && $0.succeeded
                    && $0.start > rename.end
            }
            return Replace(
                target: paths[1], rename: rename, lastWrite: lastWrite, fileFsync: fileFsync,
                directoryFsync: directoryFsync)
        }
    }

    /// The successful `link`/`linkat` calls whose new name starts with `prefix`.
    func links(to prefix: String) -> [TracedCall] {
        calls.filter {
            ($0.name == "link" || $0.name == "linkat") && $0.succeeded && ($0.strings.last?.hasPrefix(prefix) ?? false)
        }
    }

    /// The first successful fsync of `directory` that began after log line `line`.
    func directoryFsync(of directory: String, after line: Int) -> TracedCall? {
        calls.first {
            Self.fsyncs.contains($0.name) && $0.descriptorPath == directory && $0.succeeded && $0.start > line
        }
    }

    /// The first `sd_notify` datagram holding `READY=1`.
    var ready: TracedCall? { calls.first { $0.name == "sendmsg" && $0.text.contains("READY=1") } }

    /// The first write of an HTTP response with status `status` to a socket.
    func response(_ status: Int) -> TracedCall? {
        calls.first {
            Self.writes.union(["sendmsg", "sendto"]).contains($0.name) && $0.text.contains("\"HTTP/1.1 \(status) ")
        }
    }

    /// The process's `exit_group`.
    var exit: TracedCall? { calls.first { $0.name == "exit_group" } }
}
