import Foundation
import Settings
import StateStore

// Keeps settings.json in the current directory (under systemd, WorkingDirectory= its StateDirectory=). Each line on
// standard input changes a setting: `theme dark` or `fontSize 14`. SIGTERM or SIGINT saves what is not on disk yet
// and exits.

/// Writes a line at once (print's buffer would hold it back from a pipe or the journal).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

do {
    let file = StateFile(path: "settings.json", schema: try settingsSchema())
    let loaded = try file.load()
    say("\(loaded.report)")
    let state = PersistentState(file: file, loaded: loaded)
    state.flushOnStop()
    while let words = readLine()?.split(separator: " "), words.count == 2 {
        let applied = try state.apply { settings in
            if words[0] == "theme" { settings.theme = String(words[1]) }
            if words[0] == "fontSize", let size = Int(words[1]) { settings.fontSize = size }
        }
        say("revision \(applied.revision)")
    }
} catch {
    say("settings-service: \(error)")
    exit(1)
}
dispatchMain()
