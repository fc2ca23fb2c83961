import WorkspacedCommands

/// `workspaced-testing`: the commands of `workspaced`, run with the test hooks the `WSD_TEST_*` environment asks
/// for (``TestHooks/seams()``). The process tests and the system tests' watchdog and downgrade scenarios run it;
/// it is not a product and is never installed. Its main thread parks as `workspaced`'s does
/// (``Workspaced/runParkingMainThread(seams:)``).
@main
enum WorkspacedTestingMain {
    static func main() {
        Workspaced.runParkingMainThread(seams: TestHooks.seams())
    }
}
