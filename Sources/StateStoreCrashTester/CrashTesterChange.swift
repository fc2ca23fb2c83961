import StateStore
import StateStoreSample

/// The change the tester applies: bump the stored revision and touch one of up to 100 notes.
enum CrashTesterChange {
    static let key = "crashTesterRevision"

    /// The stored revision in `model` (0 when absent).
    static func storedRevision(of model: Notebook) -> UInt64 {
        if case .integer(let value) = model.unknownFields.values[key] { return UInt64(value) }
        return 0
    }

    static func apply(_ model: inout Notebook) {
        let next = storedRevision(of: model) + 1
        model.unknownFields.values[key] = .integer(Int64(next))
        let index = Int(next % 100)
        if model.notes.count < 100 {
            model.notes.append(Note(id: "crash-\(model.notes.count)", title: "revision \(next)", kind: .text, tags: []))
        } else if index < model.notes.count {
            model.notes[index].title = "revision \(next)"
        }
    }
}
