import Glibc
import Synchronization
import Testing

@testable import WorkspaceStorage

/// Counts the instances gone, so that a test can see when an element was freed.
private final class Departures: Sendable {
    let gone = Mutex<[Int]>([])
}

private final class Element {
    let number: Int
    let departures: Departures
    init(_ number: Int, _ departures: Departures) {
        self.number = number
        self.departures = departures
    }
    deinit { departures.gone.withLock { $0.append(number) } }
}

/// The migration steps' `takingEach`: converts in order, and frees each element once it is converted rather than
/// when the whole array goes.
@Suite("Converting an array element by element")
struct TakingEachTests {
    @Test func eachElementIsFreedOnceConvertedAndTheOrderIsKept() {
        let departures = Departures()
        var elements = (0..<5).map { Element($0, departures) }
        var goneBeforeEach: [[Int]] = []
        let converted = elements.takingEach { element in
            goneBeforeEach.append(departures.gone.withLock { $0 })
            return element.number * 10
        }
        #expect(converted == [0, 10, 20, 30, 40])
        #expect(elements.isEmpty)
        #expect(goneBeforeEach == [[], [0], [0, 1], [0, 1, 2], [0, 1, 2, 3]])
        #expect(departures.gone.withLock { $0 } == [0, 1, 2, 3, 4])
    }
}

/// The storage `takingEach` empties, given back as it goes (``VacatedStorage``): the pages past the last element
/// leave the process's resident memory, and the elements not yet taken are untouched.
@Suite("Giving back an emptied array's storage")
struct VacatedStorageTests {
    /// Which of the pages of `count` elements from `array`'s first are resident (`mincore`).
    static func residentPages(of array: inout [UInt64], count: Int) -> [Bool] {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        return array.withUnsafeMutableBufferPointer { buffer -> [Bool] in
            let start = Int(bitPattern: buffer.baseAddress) / pageSize * pageSize
            let end = Int(bitPattern: buffer.baseAddress) + count * MemoryLayout<UInt64>.stride
            var vector = [UInt8](repeating: 0, count: (end - start + pageSize - 1) / pageSize)
            let result = mincore(UnsafeMutableRawPointer(bitPattern: start), end - start, &vector)
            #expect(result == 0, "mincore: errno \(errno)")
            return vector.map { $0 & 1 == 1 }
        }
    }

    @Test func thePagesPastTheLastElementAreGivenBackAndTheRestKept() throws {
        let count = 1 << 20
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var array = (0..<count).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 | 1 }
        let capacity = array.capacity
        #expect(Self.residentPages(of: &array, count: capacity).allSatisfy { $0 })
        var vacated = try #require(VacatedStorage(of: &array))
        let kept = count / 4 + 123
        while array.count > kept { _ = array.popLast() }
        vacated.release(&array)
        let resident = Self.residentPages(of: &array, count: capacity)
        let base = array.withUnsafeMutableBufferPointer { Int(bitPattern: $0.baseAddress) }
        let firstPage = base / pageSize
        let lastKeptPage = (base + kept * 8 - 1) / pageSize - firstPage
        let lastWholePage = (base + capacity * 8) / pageSize - firstPage - 1
        #expect(resident[...lastKeptPage].allSatisfy { $0 }, "a page holding an element was given back")
        #expect(
            resident[(lastKeptPage + 1)...lastWholePage].allSatisfy { !$0 },
            "an emptied page stayed resident")
        #expect(array.count == kept)
        #expect(array.indices.allSatisfy { array[$0] == UInt64($0) &* 0x9E37_79B9_7F4A_7C15 | 1 })
        // The storage stays the array's: it can grow again into the pages given back (they read as zeros).
        array.append(7)
        #expect(array.last == 7 && array.capacity == capacity)
    }

    @Test func anArrayPartTakenKeepsTheElementsNotTaken() {
        struct Stop: Error {}
        let count = 200_000
        var elements = (0..<count).map { (number: $0, text: "element \($0) with more than fifteen bytes") }
        var taken = 0
        #expect(throws: Stop.self) {
            _ = try elements.takingEach { element in
                if taken == 150_000 { throw Stop() }
                taken += 1
                return element.number
            }
        }
        // The element being converted when the transform threw was taken out already.
        #expect(elements.count == count - 150_001)
        // Reversed for the taking: the last element left is the first not taken.
        #expect(elements.reversed().enumerated().allSatisfy { $0.element.number == 150_001 + $0.offset })
        #expect(elements.allSatisfy { $0.text == "element \($0.number) with more than fifteen bytes" })
    }

    @Test func aSmallArrayIsLeftAlone() {
        var small = [UInt64](repeating: 1, count: 1000)
        #expect(VacatedStorage(of: &small) == nil)
    }
}
