/// Namespace for the service manager integration: readiness and status notification, the watchdog,
/// journald logging, socket activation and credentials. Knows nothing of the state it serves.
public enum Systemd {}
