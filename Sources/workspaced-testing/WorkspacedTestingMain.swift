import WorkspacedCommands

/// `workspaced-testing`: the commands of `workspaced`, run with the test hooks the `WSD_TEST_*` environment asks
/// for (``TestHooks/seams()``). The process tests and the system tests' watchdog and downgrade scenarios run it;
/// it is not a product and is never installed.
@main
enum WorkspacedTestingMain {
    static func main() async {
        await Workspaced.main(seams: TestHooks.seams())
    }
}
