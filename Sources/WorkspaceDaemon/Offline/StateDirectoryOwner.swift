import FoundationEssentials
import Glibc
import StateStore

/// Hands the files an offline tool wrote as root back to the owner of the state directory.
///
/// Under `DynamicUser=` the state directory belongs to the service's dynamic user, and systemd fixes the ownership
/// of `StateDirectory=` at start only when the directory itself is not the service's: a file that `workspaced
/// secrets rekey` run as root wrote inside (a new `secrets.json.enc`, mode 0600) would stay root's, and the
/// service could not read it.
enum StateDirectoryOwner {
    /// Gives every file directly in `directory` that is not its owner's to that owner, when this process is root
    /// and the directory belongs to another user; returns a line saying what was changed, or nothing.
    static func handBack(_ directory: String) -> [String] {
        var owner = stat()
        guard geteuid() == 0, stat(directory, &owner) == 0, owner.st_uid != 0 else { return [] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var given: [String] = []
        var failed: [String] = []
        for name in names.sorted() {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid != owner.st_uid || info.st_gid != owner.st_gid else { continue }
            if lchown(path, owner.st_uid, owner.st_gid) == 0 {
                given.append(name)
            } else {
                failed.append("\(FileSystemError(operation: "lchown", path: path, errno: errno))")
            }
        }
        var lines: [String] = []
        if !given.isEmpty {
            lines.append(
                "gave \(given.joined(separator: ", ")) to uid \(owner.st_uid), the owner of \(directory)")
        }
        lines += failed.map { "warning: \($0): the service may not be able to read it" }
        return lines
    }
}
