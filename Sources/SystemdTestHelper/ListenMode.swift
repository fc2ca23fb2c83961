import Systemd

/// Reports the inherited sockets: `fds=` (unvalidated), then `sockets=` (validated) or `error=`; with a NAME,
/// `named=` for that socket.
enum ListenMode {
    static func run(arguments: [String]) {
        do {
            let all = try SocketActivation.inheritedFileDescriptors()
            print("fds=" + all.map { "\($0.fileDescriptor):\($0.name)" }.joined(separator: ","))
            if let name = arguments.first {
                let socket = try SocketActivation.listeningUnixSocket(named: name)
                print("named=\(socket.fileDescriptor):\(socket.name)")
            } else {
                let sockets = try SocketActivation.listeningUnixSockets(unsetEnvironment: true)
                print("sockets=" + sockets.map { "\($0.fileDescriptor):\($0.name)" }.joined(separator: ","))
                print("after-unset=\(try SocketActivation.inheritedFileDescriptors().count)")
            }
        } catch {
            print("error=\(error)")
        }
    }
}
