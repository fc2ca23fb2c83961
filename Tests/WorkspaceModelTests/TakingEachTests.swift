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
