import Glibc

/// The C library's `syncfs(2)`, found at run time: Swift's Glibc module declares it only under `_GNU_SOURCE`,
/// which it is not built with, and a C module of its own for one declaration would cost every user of StateStore
/// one more module to build.
enum FileSystemSync {
    /// `int syncfs(int fd)`, or `nil` when the C library has none.
    static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
}
