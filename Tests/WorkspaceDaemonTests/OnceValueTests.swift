import Testing

@testable import WorkspaceDaemon

@Suite("OnceValue")
struct OnceValueTests {
    @Test("waiters before the value and a reader after it get the first value set")
    func waitersAndLateReaders() async {
        let once = OnceValue<Int>()
        async let first = once.value
        async let second = once.value
        // Let the two waiters register; a waiter that comes after the set gets the value at once anyway.
        await Task.yield()
        once.set(7)
        once.set(8)
        let (a, b) = await (first, second)
        #expect(a == 7 && b == 7)
        #expect(await once.value == 7)
    }

    @Test("an optional value: nil is a value once set")
    func optionalNil() async {
        let once = OnceValue<Int?>()
        once.set(nil)
        once.set(3)
        #expect(await once.value == nil)
    }
}
