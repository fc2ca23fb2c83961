#if canImport(Glibc)
import Glibc
#endif

/// Gives the memory a load or a save has freed back to the system.
///
/// A load and a save each build, then free, temporaries as large as the state several times over (the parsed
/// JSON, the encoder's tree, the file's bytes); glibc keeps freed memory in its arenas, so without a trim the
/// daemon's resident memory after its first save stays near the peak for as long as it runs. `malloc_trim`
/// returns every whole free page; it walks the heap, which costs about a millisecond per hundred megabytes, so
/// the daemon calls it after a load and after a save, never per request.
enum HeapTrim {
    /// glibc's `malloc_trim`.
    private static let mallocTrim = allocatorFunction("malloc_trim", as: (@convention(c) (Int) -> Int32).self)

    /// glibc's `mallopt`.
    private static let mallopt = allocatorFunction("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)

    /// A function of glibc's allocator, looked up at run time: `<malloc.h>` is not part of the Glibc module, and
    /// another C library (musl) has none of them.
    private static func allocatorFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
        #else
        return nil
        #endif
    }

    /// `M_MMAP_THRESHOLD` in glibc's `<malloc.h>`.
    private static let mmapThresholdParameter: Int32 = -3

    /// Returns the free pages of every arena to the system (a no-op where glibc's allocator is not in use).
    static func releaseFreePages() {
        _ = mallocTrim?(0)
    }

    /// Keeps every block of 128 KiB or more in a mapping of its own, unmapped when it is freed, for the rest of
    /// the process (a no-op where glibc's allocator is not in use).
    ///
    /// glibc starts with that threshold but raises it to the size of each such block freed, up to 32 MiB: once a
    /// migration freed the old version's arrays (a few MiB each), later blocks of that size would come from the
    /// heap and stay resident after they were freed, raising the peak of a migrating start and what it keeps.
    /// Setting the threshold turns the adjustment off.
    static func keepLargeBlocksMapped() {
        _ = mallopt?(mmapThresholdParameter, 128 * 1024)
    }
}
