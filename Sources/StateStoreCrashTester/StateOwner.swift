import Foundation
import StateStore
import StateStoreSample
import Synchronization

/// Holds the state for the SIGTERM handler, which is installed before the state exists.
final class StateOwner: Sendable {
    private let state = Mutex<PersistentState<Notebook>?>(nil)

    /// Ignores SIGTERM's default action and delivers it to a Dispatch source that shuts down; keep the source.
    func installTerminationSource() -> any DispatchSourceSignal {
        signal(SIGTERM, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGTERM, queue: DispatchQueue(label: "sigterm"))
        source.setEventHandler { [self] in shutDown() }
        source.resume()
        return source
    }

    func set(_ value: PersistentState<Notebook>) {
        state.withLock { $0 = value }
    }

    /// Closes (refusing later changes) and flushes, prints the last accepted stored revision, exits.
    func shutDown() {
        guard let state = state.withLock({ $0 }) else {
            Output.line("accepted none")
            exit(0)
        }
        do {
            try state.close()
            let stored = state.read { CrashTesterChange.storedRevision(of: $0) }
            Output.line("accepted \(stored)")
            exit(0)
        } catch {
            Output.line("flush-failed \(error)")
            exit(1)
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
