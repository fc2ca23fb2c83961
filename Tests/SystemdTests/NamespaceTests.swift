import Systemd
import Testing

@Test func namespaceExists() {
    #expect(String(describing: Systemd.self) == "Systemd")
}
