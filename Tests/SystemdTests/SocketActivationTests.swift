import StateStoreTesting
import Systemd
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sockets passed to `SystemdTestHelper listen` the way systemd does it: at fd 3 onwards, with `LISTEN_FDS`,
/// `LISTEN_FDNAMES` and `LISTEN_PID` set to the helper's own pid (through `sh -c 'LISTEN_PID=$$ exec …'`).
@Suite struct SocketActivationTests {
    @Test func findsANamedListeningUnixSocket() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let control = try Descriptor.listeningUnixStream(at: directory.path + "/control.sock")
        let result = try await activate([control], names: "control")
        #expect(result.lines == ["fds=3:control", "sockets=3:control", "after-unset=0"])
    }

    @Test func looksUpASocketByName() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let other = try Descriptor.listeningUnixStream(at: directory.path + "/other.sock")
        let control = try Descriptor.listeningUnixStream(at: directory.path + "/control.sock")
        let found = try await activate([other, control], names: "other:control", arguments: ["control"])
        #expect(found.lines == ["fds=3:other,4:control", "named=4:control"])
        let missing = try await activate([other, control], names: "other:control", arguments: ["api"])
        #expect(
            missing.value("error")
                == "socket activation: no inherited socket named 'api' (inherited: other, control)")
    }

    @Test func unnamedSocketsAreCalledUnknown() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let control = try Descriptor.listeningUnixStream(at: directory.path + "/control.sock")
        let result = try await activate([control], names: nil)
        #expect(result.value("sockets") == "3:unknown")
    }

    @Test func refusesADatagramSocket() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let control = try Descriptor.listeningUnixStream(at: directory.path + "/control.sock")
        let datagram = try Descriptor.unixDatagram()
        let result = try await activate([control, datagram], names: "control:events")
        #expect(result.value("fds") == "3:control,4:events")
        #expect(
            result.value("error")
                == "socket activation: fd 4 ('events') is not a listening Unix stream socket (ListenStream=/path)")
    }

    @Test func refusesARegularFileAndAnUnlistenedSocket() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        try directory.write("plain", "not a socket")
        let file = try Descriptor.file(at: directory.file("plain"))
        let fileResult = try await activate([file], names: "control")
        #expect(
            fileResult.value("error")
                == "socket activation: fd 3 ('control') is not a listening Unix stream socket (ListenStream=/path)")
        let unlistened = try Descriptor.unixStream()
        let socketResult = try await activate([unlistened], names: "control")
        #expect(socketResult.value("error")?.contains("fd 3 ('control') is not a listening Unix stream socket") == true)
    }

    @Test func socketsForAnotherPidAreIgnored() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let control = try Descriptor.listeningUnixStream(at: directory.path + "/control.sock")
        let result = try await runCommand(
            [TestPaths.helper, "listen"], environment: ["LISTEN_FDS": "1", "LISTEN_PID": "1"],
            descriptors: [(control.fd, 3)])
        #expect(result.lines == ["fds=", "sockets=", "after-unset=0"])
    }

    @Test func malformedListenFdsIsAnError() async throws {
        let result = try await runCommand(
            ["/bin/sh", "-c", #"LISTEN_PID=$$ exec "$0" listen"#, TestPaths.helper],
            environment: ["LISTEN_FDS": "many"])
        #expect(
            result.lines == ["error=socket activation: LISTEN_FDS/LISTEN_PID/LISTEN_FDNAMES are not valid (errno 22)"])
    }

    /// Runs the helper with `descriptors` at 3, 4, … and the `LISTEN_*` variables systemd would set.
    private func activate(
        _ descriptors: [Descriptor], names: String?, arguments: [String] = []
    ) async throws -> CommandResult {
        var environment = ["LISTEN_FDS": String(descriptors.count)]
        environment["LISTEN_FDNAMES"] = names
        return try await runCommand(
            ["/bin/sh", "-c", #"LISTEN_PID=$$ exec "$0" "$@""#, TestPaths.helper, "listen"] + arguments,
            environment: environment,
            descriptors: descriptors.enumerated().map { ($1.fd, SocketActivation.firstFileDescriptor + Int32($0)) })
    }
}

/// A close-on-exec descriptor numbered 100 or above (so placing others at 3, 4, … never overwrites it).
final class Descriptor {
    let fd: Int32

    private init(_ original: Int32, what: String) throws {
        guard original >= 0 else { throw TestSupportError(description: "\(what): errno \(errno)") }
        fd = fcntl(original, F_DUPFD_CLOEXEC, 100)
        close(original)
        guard fd >= 0 else { throw TestSupportError(description: "F_DUPFD_CLOEXEC: errno \(errno)") }
    }

    deinit { close(fd) }

    static func listeningUnixStream(at path: String) throws -> Descriptor {
        let descriptor = try unixStream()
        var address = UnixAddress(path: path)
        guard address.withSockaddr({ bind(descriptor.fd, $0, $1) }) == 0, listen(descriptor.fd, 8) == 0 else {
            throw TestSupportError(description: "bind/listen \(path): errno \(errno)")
        }
        return descriptor
    }

    static func unixStream() throws -> Descriptor {
        try Descriptor(socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0), what: "socket")
    }

    static func unixDatagram() throws -> Descriptor {
        try Descriptor(socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0), what: "socket")
    }

    static func file(at path: String) throws -> Descriptor {
        try Descriptor(open(path, O_RDONLY | O_CLOEXEC), what: "open \(path)")
    }
}
