import WorkspacectlCommands

/// The `workspacectl` executable: runs ``Workspacectl`` (WorkspacectlCommands) on the process's arguments.
@main
enum WorkspacectlMain {
    static func main() async {
        await Workspacectl.main()
    }
}
