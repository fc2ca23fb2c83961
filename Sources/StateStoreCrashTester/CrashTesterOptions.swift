/// The tester's command line.
struct CrashTesterOptions {
    var path = ""
    var debounce: Duration = .milliseconds(2)
    var maximumDelay: Duration = .milliseconds(10)
    /// nil: change as fast as possible until stopped; N: apply N changes, then idle.
    var changes: Int?
    /// Whether to apply one change and flush it before the `--changes`: a process that has saved before.
    var flushFirst = false

    static func parse(_ arguments: [String]) -> CrashTesterOptions {
        var options = CrashTesterOptions()
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--debounce-ms": options.debounce = .milliseconds(Int(rest.popFirst() ?? "") ?? 2)
            case "--max-delay-ms": options.maximumDelay = .milliseconds(Int(rest.popFirst() ?? "") ?? 10)
            case "--flush-first": options.flushFirst = true
            case "--changes": options.changes = Int(rest.popFirst() ?? "")
            default: options.path = argument
            }
        }
        return options
    }
}
