import Dispatch
import Foundation
import WorkspaceFuzzing

/// The state of the one fuzzing run of this process: libFuzzer calls ``testOneInput(_:_:)`` on the main thread,
/// one input at a time.
enum FuzzDriver {
    /// The longest an input may take before it counts as a hang (libFuzzer's own `-timeout` is the backstop).
    static let inputLimit = DispatchTimeInterval.seconds(10)
    nonisolated(unsafe) static var checker: (any FuzzChecking)?

    /// The target named by `--target=NAME` (libFuzzer ignores arguments that start with `--`).
    static func selectedTarget(_ arguments: [String]) -> FuzzTarget? {
        arguments.lazy.compactMap { argument -> FuzzTarget? in
            guard argument.hasPrefix("--target=") else { return nil }
            return FuzzTarget(rawValue: String(argument.dropFirst("--target=".count)))
        }.first
    }

    /// Checks one input; a broken promise or a hang aborts, which libFuzzer records as a crash with its input.
    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        guard let checker else { return 0 }
        let input = data.map { Data(bytes: $0, count: size) } ?? Data()
        let result = Outcome()
        Task {
            result.finding = await checker.check(input)
            result.done.signal()
        }
        if result.done.wait(timeout: .now() + inputLimit) == .timedOut {
            fail("an input took more than \(inputLimit)")
        }
        if let finding = result.finding { fail("\(finding)") }
        return 0
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("==WorkspaceFuzz== FINDING: \(message)\n".utf8))
        abort()
    }

    /// One input's finding, handed from the task to the waiting thread.
    final class Outcome: @unchecked Sendable {
        var finding: FuzzFinding?
        let done = DispatchSemaphore(value: 0)
    }
}
