/// A listening socket inherited from the service manager (socket activation).
public struct InheritedSocket: Sendable, Equatable {
    /// The file descriptor, 3 or above; close-on-exec is set.
    public var fileDescriptor: Int32
    /// The name from `FileDescriptorName=` (`LISTEN_FDNAMES`), or `"unknown"` when the unit names none.
    public var name: String

    /// Creates a description of an inherited socket.
    public init(fileDescriptor: Int32, name: String) {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }
}
