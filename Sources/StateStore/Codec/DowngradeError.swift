/// Why a state cannot be written as an older version (``StateCodec/encode(_:downTo:)``).
public enum DowngradeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The target lies outside the schema's versions.
    case outOfRange(target: Int, first: Int, current: Int)
    /// The step from `blockedAt - 1` to `blockedAt` declares no reverse, so versions below `blockedAt` cannot be
    /// reached; `lowest` is the lowest that can.
    case unreachable(target: Int, lowest: Int, blockedAt: Int)
    /// A reverse step refused the state (it threw).
    case stepFailed(from: Int, to: Int, reason: String)
    /// The older version's value did not encode.
    case encodingFailed(version: Int, reason: String)

    /// A sentence naming the versions and what to do.
    public var description: String {
        switch self {
        case .outOfRange(let target, let first, let current):
            return "version \(target) is not one of this schema's versions (\(first) to \(current))"
        case .unreachable(let target, let lowest, let blockedAt):
            return "version \(target) cannot be reached: the step from version \(blockedAt - 1) to \(blockedAt) "
                + "has no way back; the lowest version this state can be written as is \(lowest) (restore a "
                + "backup of an older version instead)"
        case .stepFailed(let from, let to, let reason):
            return "writing version \(from) as version \(to) failed: \(reason)"
        case .encodingFailed(let version, let reason):
            return "the state as version \(version) does not encode: \(reason)"
        }
    }
}
