import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting

/// A change to a notebook as a journal records it: what was asked, with the ids chosen before.
enum NoteChange: StateChange, Equatable {
    case add(id: String, title: String)
    case rename(id: String, title: String)
    case remove(id: String)

    func apply(to notebook: inout Notebook) throws(NoteChangeError) {
        switch self {
        case .add(let id, let title):
            guard !notebook.notes.contains(where: { $0.id == id }) else { throw NoteChangeError(id: id) }
            notebook.notes.append(Note(id: id, title: title, kind: .text, tags: []))
        case .rename(let id, let title):
            guard let index = notebook.notes.firstIndex(where: { $0.id == id }) else { throw NoteChangeError(id: id) }
            notebook.notes[index].title = title
        case .remove(let id):
            guard let index = notebook.notes.firstIndex(where: { $0.id == id }) else { throw NoteChangeError(id: id) }
            notebook.notes.remove(at: index)
        }
    }

    var validatesBeforeMutating: Bool { true }
}

/// A note change that does not apply to the notebook it meets.
struct NoteChangeError: Error, Equatable {
    var id: String
}

/// Opens `file` and its journal the way a service starts: load, then replay.
func openJournaled(
    _ file: StateFile<Notebook>, scheduler: ManualPersistenceScheduler = ManualPersistenceScheduler(),
    journal: JournalConfiguration = JournalConfiguration(), history: HistoryConfiguration = .off
) throws -> PersistentState<Notebook> {
    try PersistentState(
        file: file, loaded: try file.load(), journaling: NoteChange.self, journal: journal, history: history,
        scheduler: scheduler)
}

/// The journal's segment files and anything kept aside, by name, in `directory`.
func journalNames(_ directory: TemporaryDirectory, stateName: String = "notebook.json") throws -> [String] {
    try directory.names().filter { $0.hasPrefix(stateName + ".journal") }
}
