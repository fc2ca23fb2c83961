import FoundationEssentials

extension Replicator {
    /// Makes sure this installation holds the lease before a pass writes: takes it when nobody does, renews it
    /// every ``ReplicatorConfiguration/leaseRenewal``. Returns `false` when another installation holds it (the
    /// status and the observer say who) or took it over since the last renewal.
    func ensureLease(now: Date) throws(ReplicaError) -> Bool {
        let (version, renewed) = state.withLock { ($0.leaseVersion, $0.leaseRenewed) }
        if version != nil, let renewed, now.timeIntervalSince(renewed) < Self.seconds(configuration.leaseRenewal) {
            return true
        }
        if let version {
            // Renewal: a conditional replace of the lease as written; it fails when another host took it over.
            var lease =
                state.withLock { $0.lease }
                ?? ReplicaLease(installation: configuration.installation, host: configuration.host, date: now)
            lease.renewed = now
            if let written = try target.replace(ReplicaLayout.lease, bytes: try encode(lease), ifVersion: version) {
                holdLease(lease, written, now: now, event: nil)
                return true
            }
            state.withLock { $0.leaseVersion = nil }
        }
        guard let current = try target.read(ReplicaLayout.lease) else {
            let lease = ReplicaLease(installation: configuration.installation, host: configuration.host, date: now)
            guard let written = try target.replace(ReplicaLayout.lease, bytes: try encode(lease), ifVersion: nil)
            else { return false }  // Another host took it first: the next pass reads who.
            holdLease(lease, written, now: now, event: .leaseAcquired(takenOver: false))
            return true
        }
        guard let lease = try? ReplicaLease.decoder.decode(ReplicaLease.self, from: current.bytes) else {
            throw ReplicaError(
                operation: "read \(ReplicaLayout.lease)",
                reason: "it is not a lease this release reads; `takeover` replaces it")
        }
        if lease.installation == configuration.installation {
            // Held by this installation before a restart: renew it from the version found.
            var renewedLease = lease
            renewedLease.renewed = now
            renewedLease.host = configuration.host
            guard
                let written = try target.replace(
                    ReplicaLayout.lease, bytes: try encode(renewedLease), ifVersion: current.version)
            else { return false }
            holdLease(renewedLease, written, now: now, event: .leaseAcquired(takenOver: false))
            return true
        }
        let changed = state.withLock { state -> Bool in
            let changed = state.status.heldBy?.installation != lease.installation
            state.status.heldBy = lease
            state.status.holdsLease = false
            return changed
        }
        if changed { observer?(.leaseHeldElsewhere(lease)) }
        return false
    }

    /// Writes this installation's lease over whatever holds it: ``takeOver()``.
    func forceLease(now: Date) throws(ReplicaError) {
        let current = try target.read(ReplicaLayout.lease)
        let lease = ReplicaLease(installation: configuration.installation, host: configuration.host, date: now)
        guard
            let written = try target.replace(
                ReplicaLayout.lease, bytes: try encode(lease), ifVersion: current?.version)
        else {
            throw ReplicaError(
                operation: "take over \(ReplicaLayout.lease)", reason: "another host replaced it meanwhile; try again")
        }
        holdLease(lease, written, now: now, event: .leaseAcquired(takenOver: current != nil))
    }

    private func holdLease(
        _ lease: ReplicaLease, _ version: ReplicaObjectVersion, now: Date, event: ReplicaEvent?
    ) {
        let wasHeld = state.withLock { state -> Bool in
            let wasHeld = state.status.holdsLease
            state.lease = lease
            state.leaseVersion = version
            state.leaseRenewed = now
            state.status.holdsLease = true
            state.status.heldBy = nil
            return wasHeld
        }
        if let event, !wasHeld { observer?(event) }
    }

    private func encode(_ lease: ReplicaLease) throws(ReplicaError) -> Data {
        do {
            return try ReplicaLease.encoder.encode(lease)
        } catch {
            throw ReplicaError(operation: "encode the lease", reason: "\(error)")
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
