/// A configuration key the daemon understands: its name in the config file (dotted for nested objects), its
/// environment variable, its flag, the kind of value it takes and its default.
///
/// ``all`` is the one table of keys: the loader validates with each key's kind and falls back to its default,
/// ``DaemonConfiguration``'s defaults come from it, and the manual page (`workspaced configuration-manual`) and the
/// README's table (`workspaced configuration-manual --markdown`, checked by a test) are generated from it.
package struct ConfigurationKey: Sendable, Hashable {
    /// The kind of value a key takes.
    package enum Kind: Sendable, Hashable {
        /// An absolute path.
        case path
        /// An absolute path, or the empty string for "off".
        case optionalPath
        /// A whole number within a range.
        case integer(ClosedRange<Int>)
        /// One of a fixed set of strings.
        case choice([String])
        /// A list of user or group names (or numeric ids); comma-separated in the environment.
        case names
        /// Where a replica is: `s3://BUCKET/PREFIX`, `file:///absolute/path`, or the empty string for "off".
        case replicaURL
        /// An `http://` or `https://` URL, or the empty string for the default.
        case endpointURL
        /// A word of letters, digits and `-` (a region).
        case word
        /// `true` or `false` (a JSON boolean in the file; `true`, `false`, `1`, `0` in the environment).
        case boolean
        /// `HOST:PORT`, with an IP address for the host (`[::1]:9464` for IPv6), or the empty string for "off".
        case listenAddress
    }

    /// A key's value when no source sets it.
    package enum Default: Sendable, Hashable {
        /// A whole number.
        case integer(Int)
        /// A string: a choice or a path.
        case text(String)
        /// Resolved at load time (from systemd's directory variables) or empty; said in words.
        case described(String)
    }

    /// The dotted name, as in the config file (`save.debounceMilliseconds`).
    package let name: String
    /// The kind of value.
    package let kind: Kind
    /// One line for the documentation and error messages.
    package let summary: String
    /// The value when no source sets it.
    package let defaultValue: Default
    /// The long option of `workspaced run` and `check-config` that sets it (`--save-debounce-ms`); `nil` when it
    /// is set by the file or the environment only.
    package let flag: String?

    /// A key with the given parts.
    init(name: String, kind: Kind, summary: String, defaultValue: Default, flag: String?) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.defaultValue = defaultValue
        self.flag = flag
    }

    /// The default of a whole-number key.
    package var integerDefault: Int {
        guard case .integer(let value) = defaultValue else { preconditionFailure("\(name) has no number default") }
        return value
    }

    /// The default of a choice or path key.
    package var textDefault: String {
        guard case .text(let value) = defaultValue else { preconditionFailure("\(name) has no text default") }
        return value
    }

    /// The default as the documentation says it (`500`, `salvage`, `none`).
    package var defaultDescription: String {
        switch defaultValue {
        case .integer(let value): return "\(value)"
        case .text(let value): return value
        case .described(let words): return words
        }
    }

    /// The environment variable that overrides it: `WORKSPACED_` and the name in upper snake case
    /// (`save.debounceMilliseconds` → `WORKSPACED_SAVE_DEBOUNCE_MILLISECONDS`).
    ///
    /// The names are ASCII, so their letters are told apart and upper-cased as bytes: `Character.isUppercase` and
    /// `uppercased()` search Unicode's property tables, 0.3 ms of every start for the keys' names.
    package var environmentVariable: String {
        var result = Array("WORKSPACED".utf8)
        for component in name.utf8.split(separator: UInt8(ascii: ".")) {
            result.append(UInt8(ascii: "_"))
            var previousWasLower = false
            for byte in component {
                let isLower = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                let isUpper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                if isUpper && previousWasLower { result.append(UInt8(ascii: "_")) }
                result.append(isLower ? byte - 0x20 : byte)
                previousWasLower = isLower
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The state directory.
    package static let stateDirectory = ConfigurationKey(
        name: "stateDirectory", kind: .path, summary: "directory of workspace.json",
        defaultValue: .described("$STATE_DIRECTORY, else /var/lib/workspaced"), flag: "--state-directory")
    /// The control socket.
    package static let controlSocket = ConfigurationKey(
        name: "controlSocket", kind: .path, summary: "control API socket",
        defaultValue: .described("$RUNTIME_DIRECTORY/control.sock, else /run/workspaced/control.sock"),
        flag: "--control-socket")
    /// The save debounce.
    package static let saveDebounce = ConfigurationKey(
        name: "save.debounceMilliseconds", kind: .integer(0...60_000),
        summary: "quiet time after a change before saving, in ms",
        defaultValue: .integer(500), flag: "--save-debounce-ms")
    /// The maximum save delay.
    package static let saveMaximumDelay = ConfigurationKey(
        name: "save.maximumDelayMilliseconds", kind: .integer(1...600_000),
        summary: "longest a change stays unsaved, in ms, at least the debounce",
        defaultValue: .integer(5000), flag: "--save-maximum-delay-ms")
    /// The corrupt-file policy.
    package static let corruptFilePolicy = ConfigurationKey(
        name: "corruptFilePolicy", kind: .choice(["salvage", "quarantine", "refuse"]),
        summary:
            "what to do with an unreadable state file: keep every readable record (salvage), set it aside (quarantine) or refuse to start",
        defaultValue: .text("salvage"), flag: "--corrupt-file-policy")
    /// What serves after a corrupt state file is set aside.
    package static let corruptFileFallback = ConfigurationKey(
        name: "corruptFileFallback", kind: .choice(["newest-backup", "initial-state"]),
        summary:
            "what serves when a corrupt state file is set aside (policy quarantine, or a salvage that keeps nothing): the newest backup that loads, or the initial (empty) state",
        defaultValue: .text("newest-backup"), flag: "--corrupt-file-fallback")
    /// The state file of an earlier installation, imported once when there is no state file.
    package static let legacyStatePath = ConfigurationKey(
        name: "legacyStatePath", kind: .optionalPath,
        summary:
            "state file of an earlier installation, imported once when there is no state file; empty turns the import off",
        defaultValue: .text("/var/lib/workspace-state/state.json"), flag: "--legacy-state-path")
    /// The number of backups kept.
    package static let backupsKept = ConfigurationKey(
        name: "backupsKept", kind: .integer(1...100), summary: "pre-migration backups kept",
        defaultValue: .integer(3), flag: "--backups-kept")
    /// How long the history keeps a change.
    package static let historyKeepSeconds = ConfigurationKey(
        name: "history.keepSeconds", kind: .integer(0...31_622_400),
        summary:
            "how long the history keeps changes and the snapshots they continue, in seconds (7 days); 0 turns history off",
        defaultValue: .integer(604_800), flag: "--history-keep-seconds")
    /// The bytes the history may take.
    package static let historyMaximumBytes = ConfigurationKey(
        name: "history.maximumBytes", kind: .integer(0...1_099_511_627_776),
        summary: "largest the history directory may grow, in bytes, oldest pruned first (64 MiB); 0 turns history off",
        defaultValue: .integer(67_108_864), flag: "--history-maximum-bytes")
    /// How many loads of the same state file may never finish before the next start sets it aside.
    package static let crashedLoadLimit = ConfigurationKey(
        name: "crashedLoadLimit", kind: .integer(0...100),
        summary:
            "loads of the same state file that may crash, be killed or time out before the next start sets it aside and starts from a backup; 0 turns the guard off",
        defaultValue: .integer(3), flag: "--crashed-load-limit")
    /// The log level.
    package static let logLevel = ConfigurationKey(
        name: "logLevel", kind: .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]),
        summary: "lowest level logged",
        defaultValue: .text("info"), flag: "--log-level")
    /// The largest request body the control API accepts.
    package static let apiMaximumBodyBytes = ConfigurationKey(
        name: "api.maximumBodyBytes", kind: .integer(1024...67_108_864),
        summary: "largest control API request body, in bytes; larger ones get 413",
        defaultValue: .integer(1_048_576), flag: "--api-maximum-body-bytes")
    /// The most control API connections open at once.
    package static let apiMaximumConnections = ConfigurationKey(
        name: "api.maximumConnections", kind: .integer(16...65_536),
        summary: "most control API connections open at once, at most the open-file limit less 64; one more gets 503",
        defaultValue: .integer(2048), flag: nil)
    /// How long a control API request may take to arrive whole, from its first byte.
    package static let apiRequestTimeout = ConfigurationKey(
        name: "api.requestTimeoutMilliseconds", kind: .integer(100...600_000),
        summary: "longest a request may take to arrive whole from its first byte, in ms; then 408",
        defaultValue: .integer(30_000), flag: nil)

    /// Users (names or uids) that may read the workspace through the control API.
    package static let readUsers = ConfigurationKey(
        name: "access.readUsers", kind: .names, summary: "users allowed to read through the API",
        defaultValue: .described("none"), flag: nil)
    /// Groups (names or gids) that may read the workspace.
    package static let readGroups = ConfigurationKey(
        name: "access.readGroups", kind: .names, summary: "groups allowed to read through the API",
        defaultValue: .described("none"), flag: nil)
    /// Users that may change the workspace (and read it).
    package static let writeUsers = ConfigurationKey(
        name: "access.writeUsers", kind: .names, summary: "users allowed to change through the API",
        defaultValue: .described("none"), flag: nil)
    /// Groups that may change the workspace (and read it).
    package static let writeGroups = ConfigurationKey(
        name: "access.writeGroups", kind: .names, summary: "groups allowed to change through the API",
        defaultValue: .described("none"), flag: nil)

    /// Where the history is replicated off the host.
    package static let replicaURL = ConfigurationKey(
        name: "replica.url", kind: .replicaURL,
        summary:
            "where the history is replicated: s3://BUCKET/PREFIX or file:///path (a mounted volume); empty turns replication off",
        defaultValue: .described("empty: off"), flag: nil)
    /// The S3 endpoint for a store that is not AWS.
    package static let replicaEndpoint = ConfigurationKey(
        name: "replica.endpoint", kind: .endpointURL,
        summary: "the S3 service's URL for anything but AWS (MinIO, Ceph RGW, Garage, R2); empty for AWS",
        defaultValue: .described("empty: AWS's endpoint of the region"), flag: nil)
    /// The S3 region.
    package static let replicaRegion = ConfigurationKey(
        name: "replica.region", kind: .word, summary: "the S3 region requests are signed for",
        defaultValue: .text("us-east-1"), flag: nil)
    /// How often the replica catches up.
    package static let replicaSyncInterval = ConfigurationKey(
        name: "replica.syncIntervalMilliseconds", kind: .integer(10...600_000),
        summary: "how often what is new (the open journal segment included) is shipped to the replica, in ms",
        defaultValue: .integer(1000), flag: nil)
    /// Whether a durable acknowledgement waits for the replica too.
    package static let replicaDurableAcknowledgement = ConfigurationKey(
        name: "replica.durableAcknowledgement", kind: .boolean,
        summary: "whether a durable change (?durable=true) is answered only once it is on the replica too",
        defaultValue: .text("false"), flag: nil)
    /// How the replica's objects are encrypted.
    package static let replicaEncryption = ConfigurationKey(
        name: "replica.encryption", kind: .choice(["aes-256-gcm", "none"]),
        summary:
            "client-side encryption of the replica, with the key in the credential replica-key; none stores plaintext and warns at every start",
        defaultValue: .text("aes-256-gcm"), flag: nil)
    /// Whether a start without a state file restores from the replica.
    package static let replicaRestoreIfMissing = ConfigurationKey(
        name: "replica.restoreIfMissing", kind: .boolean,
        summary: "whether a start that finds no state file restores the newest state from the replica first",
        defaultValue: .text("false"), flag: nil)
    /// How large the local history may grow while it holds files the replica lacks.
    package static let replicaLocalMaximumBytes = ConfigurationKey(
        name: "replica.localMaximumBytes", kind: .integer(0...1_099_511_627_776),
        summary:
            "bytes the local history may take to keep what the replica lacks (past history.keepSeconds and history.maximumBytes); past it the oldest is pruned anyway, with a warning; 0 keeps nothing extra",
        defaultValue: .integer(268_435_456), flag: nil)

    /// Where the metrics are written for node_exporter's textfile collector.
    package static let metricsTextfile = ConfigurationKey(
        name: "metrics.textfile", kind: .optionalPath,
        summary:
            "a file the metrics are written to (atomically) for node_exporter's textfile collector, e.g. /var/lib/node_exporter/textfile/workspaced.prom; empty writes none",
        defaultValue: .described("empty: none"), flag: nil)
    /// How often the metrics textfile is written.
    package static let metricsTextfileInterval = ConfigurationKey(
        name: "metrics.textfileIntervalSeconds", kind: .integer(1...3600),
        summary: "how often metrics.textfile is written, in seconds",
        defaultValue: .integer(15), flag: nil)

    /// Whether the daemon keeps metrics at all.
    package static let metricsEnabled = ConfigurationKey(
        name: "metrics.enabled", kind: .boolean,
        summary:
            "whether metrics are kept and served (GET /v1/metrics, metrics.listen, metrics.textfile); false answers GET /v1/metrics with 404",
        defaultValue: .text("true"), flag: nil)
    /// Where Prometheus scrapes the metrics over TCP.
    package static let metricsListen = ConfigurationKey(
        name: "metrics.listen", kind: .listenAddress,
        summary:
            "an address and port serving GET /metrics over TCP for Prometheus, e.g. 127.0.0.1:9464; a non-loopback address needs metrics.allowRemote; empty serves none",
        defaultValue: .described("empty: none"), flag: nil)
    /// Whether metrics.listen may be an address other hosts reach.
    package static let metricsAllowRemote = ConfigurationKey(
        name: "metrics.allowRemote", kind: .boolean,
        summary:
            "whether metrics.listen may be an address other than loopback (anyone who reaches it reads the metrics)",
        defaultValue: .text("false"), flag: nil)

    /// How often the daemon scrubs what a restore would start from.
    package static let scrubIntervalHours = ConfigurationKey(
        name: "scrub.intervalHours", kind: .integer(0...8760),
        summary:
            "how often the backups, the history and the replica's newest state are read and checked, at idle I/O priority, in hours; 0 scrubs only on POST /v1/scrub",
        defaultValue: .integer(24), flag: nil)

    /// Every key, in documentation order.
    package static let all: [ConfigurationKey] = [
        .stateDirectory, .controlSocket, .saveDebounce, .saveMaximumDelay, .corruptFilePolicy, .corruptFileFallback,
        .backupsKept, .historyKeepSeconds, .historyMaximumBytes,
        .crashedLoadLimit, .legacyStatePath, .logLevel, .apiMaximumBodyBytes, .apiMaximumConnections,
        .apiRequestTimeout, .readUsers,
        .readGroups, .writeUsers, .writeGroups, .replicaURL, .replicaEndpoint, .replicaRegion, .replicaSyncInterval,
        .replicaDurableAcknowledgement, .replicaEncryption, .replicaRestoreIfMissing, .replicaLocalMaximumBytes,
        .metricsEnabled, .metricsListen, .metricsAllowRemote, .metricsTextfile, .metricsTextfileInterval,
        .scrubIntervalHours,
    ]
}
