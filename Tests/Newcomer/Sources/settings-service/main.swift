import Foundation
import Settings
import StateStore

// Keeps settings.json in the current directory (under systemd, WorkingDirectory= its StateDirectory=). Each line on
// standard input changes a setting: `theme dark` or `fontSize 14`. SIGTERM, SIGINT or the end of the input saves
// what is not on disk yet and exits with status 0.

/// Writes a line at once (print's buffer would hold it back from a pipe or the journal).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

do {
    let file = StateFile(path: "settings.json", schema: try settingsSchema())
    let loaded = try file.load()
    say("\(loaded.report)")
    let state = PersistentState(file: file, loaded: loaded)
    state.flushOnStop()
    while let line = readLine() {
        let words = line.split(separator: " ").map(String.init)
        let size = words.count == 2 && words[0] == "fontSize" ? Int(words[1]) : nil
        if size == nil && (words.count != 2 || words[0] != "theme") {
            say("ignored \"\(line)\": a change is `theme NAME` or `fontSize N`")  // and takes no revision
        } else {
            let applied = try state.apply { if let size { $0.fontSize = size } else { $0.theme = words[1] } }
            say("revision \(applied.revision)")
        }
    }
    raise(SIGTERM)  // the end of the input stops the service as systemd does: flush, exit 0
} catch {
    say("settings-service: \(error)")
    // A closed state (a stop signal came): the flush on stop is under way, and exits.
    if !(error is PersistenceError) { exit(1) }
}
dispatchMain()
