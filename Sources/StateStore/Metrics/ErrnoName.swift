#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The symbolic name of an error number (`ENOSPC`), for a metric's label: stable across C libraries and
/// languages, unlike `strerror`'s sentence. Numbers without a name here are `errno_<n>`.
enum ErrnoName {
    static func name(of number: Int32) -> String {
        switch number {
        case EIO: "EIO"
        case ENOSPC: "ENOSPC"
        case EDQUOT: "EDQUOT"
        case EROFS: "EROFS"
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EEXIST: "EEXIST"
        case EXDEV: "EXDEV"
        case EBUSY: "EBUSY"
        case EFBIG: "EFBIG"
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ENOMEM: "ENOMEM"
        case EINTR: "EINTR"
        case EAGAIN: "EAGAIN"
        case EBADF: "EBADF"
        case EINVAL: "EINVAL"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ELOOP: "ELOOP"
        case ESTALE: "ESTALE"
        default: "errno_\(number)"
        }
    }
}
