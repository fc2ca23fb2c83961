import Foundation
import StateStore
import StateStoreSample

/// The tester's stop: SIGTERM before the state is loaded exits at once ("accepted none"); once it is, the state's
/// own ``PersistentState/flushOnStop(using:exitsProcess:observer:)`` closes, flushes and exits.
enum StateOwner {
    /// Takes SIGTERM from its default action before anything else; keep the sources.
    static func installTerminationSources() -> SignalSources {
        SignalSources([SIGTERM], label: "sigterm") { _ in
            Output.line("accepted none")
            exit(0)
        }
    }

    /// Hands SIGTERM to `state`: close (refusing later changes) and flush, print the last accepted stored revision
    /// or why the flush failed, exit (0, or 74 after a failed flush).
    static func flushOnStop(_ state: PersistentState<Notebook>, using sources: SignalSources) {
        state.flushOnStop(using: sources) { event in
            switch event {
            case .stopping:
                break
            case .flushed:
                Output.line("accepted \(state.read { CrashTesterChange.storedRevision(of: $0) })")
            case .flushFailed(_, let error):
                Output.line("flush-failed \(error)")
            }
        }
    }
}
/// Unbuffered line output, so a parent sees every line written before a SIGKILL.
enum Output {
    static func line(_ text: String) {
        write(text, to: 1)
    }

    static func diagnostic(_ text: String) {
        write(text, to: 2)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array((text + "\n").utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
