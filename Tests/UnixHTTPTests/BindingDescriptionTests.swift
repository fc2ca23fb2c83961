import Testing
import UnixHTTP

/// The binding as the `listening` log entry names it (docs/logging.md): the form Swift prints an enum case in.
@Suite struct BindingDescriptionTests {
    @Test func eachBindingReadsAsItsCase() {
        #expect("\(HTTPServerBinding.path("/run/workspaced/control.sock"))" == #"path("/run/workspaced/control.sock")"#)
        #expect("\(HTTPServerBinding.path(#"/tmp/a "quoted" name"#))" == #"path("/tmp/a \"quoted\" name")"#)
        #expect("\(HTTPServerBinding.inheritedDescriptor(3))" == "inheritedDescriptor(3)")
        #expect("\(HTTPServerBinding.tcp(host: "::1", port: 9100))" == #"tcp(host: "::1", port: 9100)"#)
    }
}
