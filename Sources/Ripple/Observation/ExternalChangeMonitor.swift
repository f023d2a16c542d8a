import Dispatch
import Foundation

/// Checks a writer's database file for changes committed by other connections and
/// processes, at the interval of ``Configuration/externalChangeCheckInterval``, and tells
/// observers about them (see ``Database/checkExternalChanges()``).
///
/// Owned by the ``DatabaseQueue`` or ``DatabasePool``; stops when it is deallocated.
final class ExternalChangeMonitor: @unchecked Sendable {  // `isCheckPending` behind `lock`; a dispatch timer is thread-safe
    private let timer: DispatchSourceTimer
    // Protected by `lock`: whether a check waits on the writer's queue already, so that a
    // busy writer does not pile up checks.
    private let lock = NSLock()
    private var isCheckPending = false

    /// A monitor for the writer, if the configuration asks for one and the database is a
    /// file.
    static func start(for writer: SerializedDatabase, path: String, configuration: Configuration) -> ExternalChangeMonitor? {
        guard let interval = configuration.externalChangeCheckInterval,
              path != ":memory:", !path.isEmpty, !path.hasPrefix("file::memory:")
        else { return nil }
        return ExternalChangeMonitor(writer: writer, interval: interval)
    }

    init(writer: SerializedDatabase, interval: TimeInterval) {
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let nanoseconds = Int(max(interval, 0.001) * 1_000_000_000)
        timer.schedule(
            deadline: .now(),
            repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { [weak self, weak writer] in
            guard let self, let writer else { return }
            self.scheduleCheck(on: writer)
        }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    private func scheduleCheck(on writer: SerializedDatabase) {
        let shouldSchedule = lock.withLock {
            defer { isCheckPending = true }
            return !isCheckPending
        }
        guard shouldSchedule else { return }
        writer.async { [weak self] db in
            self?.lock.withLock { self?.isCheckPending = false }
            db.checkExternalChanges()
        }
    }
}

extension Database {
    /// Reads the database file's data version, and tells observers about a change to the
    /// whole database when another connection or process committed since the last check.
    /// The first check only records the version.
    func checkExternalChanges() {
        // A transaction left open (allowsUnsafeTransactions) has its own snapshot: wait.
        guard !isClosed, !isInsideTransaction,
              let version = try? Int.fetchOne(self, sql: "PRAGMA data_version")
        else { return }
        observation.externalChangeChecks += 1
        defer { observation.lastDataVersion = version }
        guard let lastVersion = observation.lastDataVersion, lastVersion != version else { return }
        try? notifyChanges(in: DatabaseRegion.fullDatabase)
    }
}
