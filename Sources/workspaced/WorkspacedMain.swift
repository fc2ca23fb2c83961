import WorkspacedCommands

/// The `workspaced` executable: runs ``Workspaced`` (WorkspacedCommands) on the process's arguments with the
/// shipped seams.
@main
enum WorkspacedMain {
    static func main() async {
        await Workspaced.main(seams: .shipped)
    }
}
