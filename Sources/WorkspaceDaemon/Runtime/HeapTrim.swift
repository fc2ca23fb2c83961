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
    /// glibc's `malloc_trim`, looked up at run time: `<malloc.h>` is not part of the Glibc module, and another C
    /// library (musl) has none.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Returns the free pages of every arena to the system (a no-op where glibc's allocator is not in use).
    static func releaseFreePages() {
        _ = mallocTrim?(0)
    }
}
