import Foundation
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

@testable import StateStore

/// Issue 29's peak-memory goal: a large state file is mapped, not read into the heap, and the direct read gives
/// back the pages it has passed, so that the file and the model it becomes are not resident at once.
@Suite("Loading a mapped state file", .heavy)
struct MappedLoadTests {
    /// A version 4 notebook of `count` notes (about 100 bytes each), the last one replaced by `last` when given.
    static func notebook(notes count: Int, last: String? = nil) -> Data {
        var text = #"{"author":{"familyName":"B","givenName":"A"},"minReaderVersion":4,"notes":["#
        for index in 0..<count {
            text += index == 0 ? "" : ","
            if index == count - 1, let last {
                text += last
                continue
            }
            text += #"{"id":"n\#(index)","kind":"text","pinned":false,"tags":["t"],"#
            text += #""title":"note number \#(index) of the mapped notebook"}"#
        }
        return Data((text + #"],"version":4}"#).utf8)
    }

    /// The resident bytes of the mapping that starts at `address`, from `/proc/self/smaps`.
    static func residentBytes(ofMappingAt address: Int) throws -> Int {
        // Foundation reads a /proc file as empty (its size is 0); PosixFileSystem reads to the end.
        let smaps = String(decoding: try PosixFileSystem().readFile(at: "/proc/self/smaps") ?? Data(), as: UTF8.self)
        let start = String(address, radix: 16) + "-"
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            // A mapping's first line: `7f19…000-7f19…000 r--p …`.
            if let range = line.split(separator: " ").first?.split(separator: "-"), range.count == 2,
                range.allSatisfy({ $0.allSatisfy(\.isHexDigit) })
            {
                inMapping = line.hasPrefix(start)
                continue
            }
            guard inMapping, line.hasPrefix("Rss:") else { continue }
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return (kilobytes ?? 0) * 1024
        }
        throw MappingNotFound(address: address)
    }

    struct MappingNotFound: Error {
        let address: Int
    }

    private func codec() throws -> StateCodec<Notebook> {
        var codec = StateCodec(schema: try NotebookSchema.make())
        codec.pageReleaseInterval = 64 << 10
        return codec
    }

    @Test func aLargeHistorySegmentIsMappedWithEveryPagePresent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Self.notebook(notes: 200)
        try directory.write("segment", bytes)
        let path = directory.file("segment")
        let mapped = try #require(try PosixFileSystem().mappedBytes(at: path, from: bytes.count))
        // Every page is in before a byte is read (MAP_POPULATE): a replay then takes no fault per page.
        let address = mapped.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
        #expect(try Self.residentBytes(ofMappingAt: address) >= bytes.count & ~4095)
        #expect(mapped == bytes)
        let read = try #require(try PosixFileSystem().mappedBytes(at: path, from: bytes.count + 1))
        #expect(read == bytes)
        #expect(throws: MappingNotFound.self) {
            try Self.residentBytes(ofMappingAt: read.withUnsafeBytes { Int(bitPattern: $0.baseAddress) })
        }
        #expect(try PosixFileSystem().mappedBytes(at: directory.file("missing"), from: 1) == nil)
    }

    @Test func aReadOfThePastReplaysMappedSegments() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        var fileSystem = PosixFileSystem()
        fileSystem.mapsSegmentsFrom = 1
        let state = try openJournaled(
            try notebookFile(directory, fileSystem: fileSystem), scheduler: scheduler,
            journal: JournalConfiguration(maximumByteCount: 1024), history: HistoryTests.history)
        try state.saveSynchronously()
        var expected: [UInt64: [String]] = [0: []]
        expected.merge(try HistoryTests().work(state, scheduler: scheduler, from: 1, count: 40)) { $1 }
        #expect(try historyNames(directory).filter { $0.hasPrefix("journal.") }.count > 1)
        for revision in 0...state.status.revision {
            #expect(
                HistoryTests().titles(try state.model(atRevision: revision)) == expected[revision],
                "revision \(revision)")
        }
    }

    @Test func aSmallFileIsReadAndALargeOneMapped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Self.notebook(notes: 100)
        try directory.write("state.json", bytes)
        let path = directory.file("state.json")
        let read = try #require(try PosixFileSystem().loadBytes(at: path))
        #expect(read.mappedAt == nil && read.data == bytes)
        var mapping = PosixFileSystem()
        mapping.mapsFilesFrom = 1
        let mapped = try #require(try mapping.loadBytes(at: path))
        #expect(mapped.mappedAt != nil && mapped.data == bytes)
        #expect(try mapping.loadBytes(at: directory.file("missing.json")) == nil)
    }

    /// A file just written (as a save writes it) sits in the page cache in folios of up to 2 MiB, which Linux 6.18
    /// maps whole at the first fault when one lies within a page table of the mapping. The load's mapping starts one
    /// page past a 2 MiB boundary, so that a fault maps its fault-around window (64 KiB) and not a whole folio.
    @Test func aFaultMapsAWindowAndNotAWholeFolio() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Self.notebook(notes: 80_000)
        #expect(bytes.count > 8 << 20)
        try directory.write("state.json", bytes)
        let loaded = try #require(try PosixFileSystem().loadBytes(at: directory.file("state.json")))
        let address = try #require(loaded.mappedAt)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(address % (2 << 20) == page)
        // One byte read in each of the first four megabytes.
        let sum = loaded.data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            stride(from: 0, to: 4 << 20, by: 1 << 20).reduce(0) {
                $0 + Int(bytes.load(fromByteOffset: $1, as: UInt8.self))
            }
        }
        #expect(sum > 0)
        let resident = try Self.residentBytes(ofMappingAt: address)
        #expect(resident <= 4 * (256 << 10), "\(resident) bytes resident after four one-byte reads")
        #expect(loaded.data == bytes)
    }

    /// Read in one part and in two: the page cache may map a file in large folios (up to 2 MiB), so that a fault
    /// maps a whole folio again; the file is large enough that the folio the read ends in is a small part of it.
    @Test(arguments: [false, true])
    func theDirectReadGivesBackThePagesItHasPassed(inParts: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Self.notebook(notes: 150_000)
        #expect(bytes.count > 15 << 20)
        try directory.write("state.json", bytes)
        let loaded = try #require(try PosixFileSystem().loadBytes(at: directory.file("state.json")))
        let address = try #require(loaded.mappedAt)
        var codec = try codec()
        codec.readsInPartsFrom = inParts ? 1 << 20 : nil

        // Read without the release: every page the read touched stays resident.
        let kept = try codec.decode(loaded.data, salvaging: false, mappedAt: nil)
        let residentKept = try Self.residentBytes(ofMappingAt: address)
        #expect(residentKept > bytes.count * 3 / 4, "\(residentKept) of \(bytes.count) bytes resident")

        let released = try codec.decode(loaded.data, salvaging: false, mappedAt: address)
        let residentReleased = try Self.residentBytes(ofMappingAt: address)
        #expect(residentReleased < bytes.count / 4, "\(residentReleased) of \(bytes.count) bytes resident")
        #expect(released.directReadFallback == nil)
        #expect(released.model == kept.model && released.model.notes.count == 150_000)
        #expect(loaded.data == bytes, "the pages given back read as the file again")
    }

    @Test func aSalvageAfterTheReleaseReadsTheFileAsItIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The last note cannot be read: the direct read refuses it after giving back the pages before it, and the
        // strict and salvage passes through `Codable` read the whole file again.
        let bytes = Self.notebook(notes: 30_000, last: #"["not a note"]"#)
        try directory.write("state.json", bytes)
        let loaded = try #require(try PosixFileSystem().loadBytes(at: directory.file("state.json")))
        let address = try #require(loaded.mappedAt)
        let salvaged = try codec().decode(loaded.data, salvaging: true, mappedAt: address)
        let fromHeap = try codec().decode(Data(bytes), salvaging: true)
        #expect(salvaged.model == fromHeap.model && salvaged.model.notes.count == 29_999)
        #expect(salvaged.salvage?.droppedRecords.count == 1)
        #expect(salvaged.salvage?.summary == fromHeap.salvage?.summary)
    }

    @Test func aStateFileLoadsAMappedFileAsItLoadsARead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("state.json", Self.notebook(notes: 2_000))
        let path = directory.file("state.json")
        var mapping = PosixFileSystem()
        mapping.mapsFilesFrom = 1
        let mapped = try StateFile(path: path, schema: try NotebookSchema.make(), fileSystem: mapping).load()
        let read = try StateFile(path: path, schema: try NotebookSchema.make()).load()
        #expect(mapped.model == read.model && mapped.model.notes.count == 2_000)
        #expect(mapped.report.byteCount == read.report.byteCount)
        #expect(mapped.report.directReadFallback == nil)
    }
}
