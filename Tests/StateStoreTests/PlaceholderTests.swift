import StateStore
import Testing

@Test func placeholder() { #expect(Bool(true)) }
