import StateStoreTesting
import Systemd
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CredentialsTests {
    @Test func readsANamedCredential() throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        try directory.write("api-token", "s3cret\n")
        let credentials = Credentials(environment: ServiceEnvironment(["CREDENTIALS_DIRECTORY": directory.path]))
        #expect(try credentials.bytes("api-token") == Array("s3cret\n".utf8))
        #expect(try credentials.string("api-token") == "s3cret")
    }

    @Test func missingFileNamesTheCredentialAndDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let credentials = Credentials(environment: ServiceEnvironment(["CREDENTIALS_DIRECTORY": directory.path]))
        #expect(throws: CredentialError.missing(name: "absent", directory: directory.path)) {
            try credentials.string("absent")
        }
        #expect(
            CredentialError.missing(name: "absent", directory: directory.path).description
                == "credential 'absent': no such file in \(directory.path)")
    }

    @Test func unsetDirectoryIsItsOwnError() {
        let credentials = Credentials(environment: ServiceEnvironment([:]))
        #expect(credentials.directory == nil)
        #expect(throws: CredentialError.directoryUnset(name: "api-token")) {
            try credentials.bytes("api-token")
        }
    }

    @Test func namesThatLeaveTheDirectoryAreRefused() {
        let credentials = Credentials(environment: ServiceEnvironment(["CREDENTIALS_DIRECTORY": "/tmp"]))
        for name in ["", ".", "..", "../etc/passwd", "a/b"] {
            #expect(throws: CredentialError.invalidName(name: name)) { try credentials.bytes(name) }
        }
    }

    @Test func unreadableCredentialReportsErrno() throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        #expect(mkdir(directory.path + "/folder", 0o700) == 0)
        let credentials = Credentials(environment: ServiceEnvironment(["CREDENTIALS_DIRECTORY": directory.path]))
        #expect(throws: CredentialError.unreadable(name: "folder", path: directory.path + "/folder", errno: EISDIR)) {
            try credentials.bytes("folder")
        }
    }
}
