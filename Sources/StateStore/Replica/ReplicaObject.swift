import FoundationEssentials

/// The name of an object in a replica: relative, `/`-separated, of `A–Z a–z 0–9 . _ -` and `/`, without empty,
/// `.` or `..` segments, at most 512 bytes. The same names are valid S3 keys and file paths, so a replica copied
/// from one kind of target to the other keeps its names.
public struct ReplicaObjectName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name.
    public let rawValue: String

    /// `rawValue` as a name; `nil` when it is not one.
    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 512,
            rawValue.utf8.allSatisfy({ Self.allowed($0) }),
            rawValue.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({
                !$0.isEmpty && $0 != "." && $0 != ".."
            })
        else { return nil }
        self.rawValue = rawValue
    }

    /// The name.
    public var description: String { rawValue }

    /// Orders names as a listing does, byte by byte.
    public static func < (lhs: ReplicaObjectName, rhs: ReplicaObjectName) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }

    private static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"),
            UInt8(ascii: "/"):
            true
        default: false
        }
    }
}

/// What a target's version of an object is: an opaque text that changes whenever the object does (the S3 ETag,
/// the SHA-256 of a directory's file).
public struct ReplicaObjectVersion: Sendable, Hashable, CustomStringConvertible {
    /// The text.
    public let rawValue: String

    /// The version `rawValue`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The text.
    public var description: String { rawValue }
}

/// An object a listing found.
public struct ReplicaObject: Sendable, Hashable {
    /// Its name.
    public var name: ReplicaObjectName
    /// Its size in bytes.
    public var byteCount: Int

    /// The object `name` of `byteCount` bytes.
    public init(name: ReplicaObjectName, byteCount: Int) {
        self.name = name
        self.byteCount = byteCount
    }
}

/// What ``ReplicaTarget/create(_:bytes:)`` did.
public enum ReplicaCreation: Sendable, Equatable {
    /// The object was written.
    case created
    /// An object of that name held the same bytes: nothing was written.
    case existedWithTheSameBytes
    /// An object of that name holds other bytes: nothing was written.
    case existedWithOtherBytes
}

/// Why a replica target could not do what it was asked.
public struct ReplicaError: Error, Sendable, CustomStringConvertible {
    /// What was asked (`create`, `read`, …) and of which object or prefix.
    public var operation: String
    /// What went wrong, as the store or the file system said it.
    public var reason: String

    /// The error of `operation`, for `reason`.
    public init(operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    /// `cannot <operation>: <reason>`.
    public var description: String { "cannot \(operation): \(reason)" }
}
