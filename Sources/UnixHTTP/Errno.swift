import Glibc

/// `strerror` text followed by the symbolic number, e.g. "No such file or directory (errno 2)".
func errnoDescription(_ code: Int32) -> String {
    "\(String(cString: strerror(code))) (errno \(code))"
}
