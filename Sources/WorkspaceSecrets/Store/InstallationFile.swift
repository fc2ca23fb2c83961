import Foundation
import StateStore

/// `installation.json`: a plaintext copy of the installation record and the id of the key the store is sealed
/// under, written once next to `secrets.json.enc`.
///
/// It makes the store hard to reset by deleting one file: with `installation.json` present and the store
/// missing, the daemon refuses to mint a new installation (token authentication is disabled and says why);
/// with the store readable and `installation.json` missing, it is written again.
public struct InstallationFile: Codable, Sendable, Equatable {
    /// The file's name in the state directory.
    public static let fileName = "installation.json"

    /// The format of this file (1).
    public var version: Int
    /// The installation's id, lower case.
    public var id: String
    /// When the daemon first started.
    public var firstStartedAt: Date
    /// The release that first started.
    public var firstRelease: String
    /// The id of the key the store is sealed under.
    public var keyId: String

    /// The file for `record` sealed under `keyID`.
    public init(record: InstallationRecord, keyID: String) {
        self.version = 1
        self.id = record.id.uuidString.lowercased()
        self.firstStartedAt = record.firstStartedAt
        self.firstRelease = record.firstRelease
        self.keyId = keyID
    }

    /// The installation record it copies (without unknown fields), when its id is a UUID.
    public var record: InstallationRecord? {
        UUID(uuidString: id).map {
            InstallationRecord(id: $0, firstStartedAt: firstStartedAt, firstRelease: firstRelease)
        }
    }

    /// What is at a path.
    public enum Contents: Sendable, Equatable {
        /// No file.
        case missing
        /// A readable file.
        case present(InstallationFile)
        /// A file that cannot be read or decoded, and why.
        case unreadable(String)

        /// Whether there is a file, readable or not.
        public var exists: Bool { self != .missing }
    }

    /// Reads the file at `path`.
    public static func read(_ path: String, fileSystem: any FileSystem = PosixFileSystem()) -> Contents {
        let bytes: Data?
        do {
            bytes = try fileSystem.readFile(at: path)
        } catch {
            return .unreadable("\(error)")
        }
        guard let bytes else { return .missing }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let file = try decoder.decode(InstallationFile.self, from: bytes)
            guard file.record != nil else { return .unreadable("\(path): \"id\" is not a UUID") }
            return .present(file)
        } catch {
            return .unreadable("\(path) is not an installation file: \(error)")
        }
    }

    /// Durably writes the file at `path` (mode 0644: nothing in it is secret).
    public func write(to path: String, fileSystem: any FileSystem = PosixFileSystem()) throws(DurableWriteError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(self)) ?? Data()
        try DurableWriter(fileSystem: fileSystem, mode: 0o644).write(data + Data("\n".utf8), to: path)
    }
}
