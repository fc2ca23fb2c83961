// The floor of the daemon's fixed start: a static Swift binary that only tells the service manager it is ready
// and waits for SIGTERM. `make bench` builds it as the daemon is built (release, the standard library linked in)
// and `WorkspaceBench ready --floor` times its exec → READY=1 beside the daemon's, in the same run: what any Swift
// daemon on this machine pays before its first line of code (the kernel's exec, the loader, the runtime's start).
import Glibc

var terminate = sigset_t()
sigemptyset(&terminate)
sigaddset(&terminate, SIGTERM)
sigprocmask(SIG_BLOCK, &terminate, nil)

// READY=1 to $NOTIFY_SOCKET, a path (the benchmark's own socket), as sd_notify would send it.
if let path = getenv("NOTIFY_SOCKET") {
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
        for (index, byte) in String(cString: path).utf8.prefix(bytes.count - 1).enumerated() {
            bytes[index] = byte
        }
    }
    let message = "READY=1\nSTATUS=the start floor\n"
    let sent = message.withCString { text in
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(
                    descriptor, text, strlen(text), 0, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
    if sent < 0 { exit(1) }
}

var received: Int32 = 0
sigwait(&terminate, &received)
exit(0)
