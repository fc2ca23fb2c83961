import Dispatch
import Foundation
import StateCoding
import Synchronization
import TestSupport
import Testing

@testable import StateStore

/// StateStore and the modules under it link FoundationEssentials, not Foundation: a service built on them does
/// not carry Foundation's ICU data and CoreFoundation, nor their relocations and initializers at every start. The
/// few things they took from Foundation have replacements here, each checked against what Foundation gives.
@Suite("State libraries on FoundationEssentials")
struct FoundationEssentialsTests {
    @Test(
        "the state libraries import FoundationEssentials, never Foundation",
        arguments: ["StateJSON", "StateCoding", "StateModel", "StateStore"])
    func noFullFoundation(module: String) throws {
        let sources = try SourceImports.sources(of: module)
        #expect(!sources.isEmpty)
        for (file, text) in sources {
            let imported = SourceImports.imports(in: text)
            #expect(!imported.contains("Foundation"), "Sources/\(module)/\(file) imports Foundation")
        }
    }

    // Paths swift-corelibs-foundation's NSString splits without trapping (it traps on `a`, `a/`, `.` and
    // `//a///b//`, which ``relativeAndOddPaths()`` checks by value).
    static let paths = [
        "", "/", "/a", "/a/", "a/b", "/a/b", "/a/b/", "/a//b", "a//b/", "/var/lib/workspaced/workspace.json",
        "/var/lib/workspaced/workspace.json.history/", "./x", "../x/y", "/é/ü.json", "..",
    ]

    @Test("PathText splits paths as NSString does", arguments: paths)
    func pathsAsNSString(path: String) {
        #expect(PathText.lastComponent(of: path) == (path as NSString).lastPathComponent)
        #expect(PathText.deletingLastComponent(of: path) == (path as NSString).deletingLastPathComponent)
    }

    @Test("PathText splits the paths NSString traps on, and keeps `//` the root, where NSString makes it empty")
    func relativeAndOddPaths() {
        let expected: [(path: String, last: String, rest: String)] = [
            ("a", "a", ""), ("a/", "a", ""), (".", ".", ""), ("//a///b//", "b", "/a"), ("//", "/", "/"),
            ("///a", "a", "/"),
        ]
        for (path, last, rest) in expected {
            #expect(PathText.lastComponent(of: path) == last, "\(path)")
            #expect(PathText.deletingLastComponent(of: path) == rest, "\(path)")
        }
    }

    @Test("DecimalText writes what String(format:) writes")
    func decimalsAsStringFormat() {
        let values: [Double] = [
            0, -0.0, 0.05, 0.15, 0.25, 1.25, 2.5, 9.95, 99.99, 123.456, -3.75, 1e-9, 1e15, 12_345_678.9,
            .greatestFiniteMagnitude, .infinity, -.infinity,
        ]
        for value in values {
            for places in [0, 1, 2, 3] {
                #expect(
                    DecimalText.fixed(value, places: places) == String(format: "%.\(places)f", value),
                    "\(value) with \(places) decimals")
            }
        }
        #expect(DecimalText.fixed(.nan, places: 1) == String(format: "%.1f", Double.nan))
    }

    @Test("DecimalText pads as %04d, %02x and %04o do, and UTCTimestamp writes the compact UTC form and the day")
    func paddingAndTimestamps() {
        for value in [0, 7, 42, 420, 2026, 65535] {
            #expect(DecimalText.padded(value, width: 4) == String(format: "%04d", value))
            #expect(DecimalText.padded(value, width: 2, radix: 16) == String(format: "%02x", value))
            #expect(DecimalText.padded(value, width: 4, radix: 8) == String(format: "%04o", value))
        }
        #expect(DecimalText.padded(-5, width: 3) == "-005")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let dayFormatter = DateFormatter()
        dayFormatter.locale = Locale(identifier: "en_US_POSIX")
        dayFormatter.timeZone = TimeZone(identifier: "UTC")
        dayFormatter.dateFormat = "yyyy-MM-dd"
        for seconds in [0, 951_782_400.75, 1_795_827_660, 4_102_444_799] as [Double] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCTimestamp.compact(date) == formatter.string(from: date), "\(seconds)")
            #expect(UTCTimestamp.day(date) == dayFormatter.string(from: date), "\(seconds)")
        }
    }

    @Test("trimming takes what Foundation's white space sets take from ASCII text")
    func trimmingAsFoundation() {
        let texts = ["", " ", "\t a b \t", "\n\r x \u{0B}\u{0C}", "x", "  x", "x  ", "\n", " \n a\nb \n "]
        for text in texts {
            #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(
                text.trimmingWhiteSpace() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
            #expect(text[...].trimmingBlanks() == text.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("ConditionLock wakes a waiter that waits for a change")
    func conditionLockWakesAWaiter() async {
        let lock = ConditionLock()
        let ready = Mutex(false)
        let woke = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            lock.lock()
            while !ready.withLock({ $0 }) { lock.wait() }
            lock.unlock()
            woke.signal()
        }
        // The waiter may be waiting or not started: either way it sees the change once woken or on its first look.
        lock.lock()
        ready.withLock { $0 = true }
        lock.broadcast()
        lock.unlock()
        #expect(woke.wait(timeout: .now() + 10) == .success)
    }

    @Test("DedicatedThread runs its body on another thread")
    func dedicatedThreadRuns() {
        let ran = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        let other = Mutex(false)
        DedicatedThread.start {
            other.withLock { $0 = pthread_equal(pthread_self(), caller) == 0 }
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        #expect(other.withLock { $0 })
    }

    @Test("a journal segment's header reads its relabels as stored: none, null, a lineage, or not a header")
    func headerRelabels() throws {
        let lineage = try #require(Lineage(rawValue: "0123456789abcdef"))
        func header(_ relabels: String?) -> JournalSegmentFormat.Header? {
            let tail = relabels.map { ",\"relabels\":\($0)" } ?? ""
            let text = #"{"journal":\#(JournalSegmentFormat.version),"lineage":"0123456789abcdef","baseRevision":7"#
            return JournalSegmentFormat.Header(payload: Array((text + tail + "}").utf8))
        }
        let plain = try #require(header(nil))
        #expect(plain.lineage == lineage && plain.baseRevision == 7 && !plain.startsLineage)
        let null = try #require(header("null"))
        #expect(null.startsLineage && null.relabels == nil)
        let relabeled = try #require(header("\"fedcba9876543210\""))
        #expect(relabeled.startsLineage && relabeled.relabels?.rawValue == "fedcba9876543210")
        #expect(header("\"not a lineage\"") == nil)
        #expect(header("12") == nil)
        let more = try #require(header("null,\"later\":[1,{\"a\":2}]"))
        #expect(more.startsLineage && more.relabels == nil, "keys this release does not know are skipped")
        #expect(header("nul") == nil, "not JSON")
        #expect(header("[1,") == nil, "not JSON")
        #expect(JournalSegmentFormat.Header(payload: Array(#"{"journal":1,"lineage":"0123456789abcdef"}"#.utf8)) == nil)
        #expect(
            JournalSegmentFormat.Header(
                payload: Array(#"{"journal":"1","lineage":"0123456789abcdef","baseRevision":7}"#.utf8)) == nil)
        #expect(
            JournalSegmentFormat.Header(
                payload: Array(#"{"journal":1,"lineage":"0123456789abcdef","baseRevision":-7}"#.utf8)) == nil)
        #expect(
            JournalSegmentFormat.Header(
                payload: Array(#"{"journal":2,"lineage":"0123456789abcdef","baseRevision":7}"#.utf8)) == nil)
        // What the writer writes reads back.
        for written in [
            JournalSegmentFormat.Header(lineage: lineage, baseRevision: 3),
            JournalSegmentFormat.Header(lineage: lineage, baseRevision: 3, relabels: .some(nil)),
            JournalSegmentFormat.Header(lineage: lineage, baseRevision: 3, relabels: .some(lineage)),
        ] {
            let read = try #require(JournalSegmentFormat.Header(payload: written.payload))
            #expect(read.startsLineage == written.startsLineage && read.relabels == written.relabels)
        }
    }
}
