import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Child process for SystemdTests: runs one part of the Systemd API in its own process and prints what happened,
/// one `key=value` line per fact, on stdout.
@main
enum SystemdTestHelper {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "journal": JournalMode.run()
        case "notify": NotifyMode.run()
        case "watchdog": await WatchdogMode.run(arguments: Array(arguments.dropFirst()))
        case "listen": ListenMode.run(arguments: Array(arguments.dropFirst()))
        case "auto": AutoMode.run(arguments: Array(arguments.dropFirst()))
        default:
            print("usage: SystemdTestHelper journal|notify|watchdog [HEALTHY_ROUNDS ROUNDS]|listen [NAME]|auto [log]")
            exit(2)
        }
    }
}
