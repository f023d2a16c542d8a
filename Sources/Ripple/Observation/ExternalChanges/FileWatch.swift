import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls a handler when the database file, its write-ahead log or its rollback journal
/// changes: what wakes the checks of ``ExternalChangeMonitor``.
///
/// - Linux: inotify, on the directory of the database (the log and the journal come and go;
///   a watch on the directory sees them by name), through the process's one inotify
///   instance (``INotifyCenter``). No descriptor is ever opened on the database's own
///   files: closing one would drop the process's POSIX locks on them, which SQLite relies
///   on.
/// - Apple platforms: dispatch sources on the directory (the journal's creation and
///   deletion, which ends each rollback-journal commit) and on the write-ahead log once it
///   exists (SQLite takes no lock on that file). The database file itself is not watched,
///   for the reason above: the safety poll covers the journal modes that neither source
///   sees.
///
/// Events may be spurious or coalesced: a change is only a reason to check. While the
/// watch is paused (a check is planned already, which will see every change made until
/// it starts), no event is made: a process that writes fast pays for few events, in the
/// kernel and out of it. (On Linux the inotify watch is removed meanwhile; on Apple
/// platforms the sources are suspended, and the kernel coalesces their events.)
final class FileWatch: Sendable {
    private struct Locked {
        var sources: [any DispatchSourceProtocol] = []
        var isCancelled = false
        var isPaused = false
        #if os(Linux) || os(Android)
        /// The subscription to the directory's events.
        var subscription: INotifyCenter.Subscription?
        #endif
    }

    private let locked = LockedState(Locked())

    /// Starts watching; nil when the platform or the file system refuses.
    init?(databasePath: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
        let url = URL(fileURLWithPath: databasePath)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        #if os(Linux) || os(Android)
        // (Events come on the center's queue; `queue` serves Apple platforms.)
        guard
            let subscription = INotifyCenter.shared.subscribe(
                directory: directory, names: [name, name + "-wal", name + "-journal"], handler: onChange)
        else { return nil }
        locked.withLock { $0.subscription = subscription }
        #elseif canImport(Darwin)
        let walPath = databasePath + "-wal"
        let watchesLog = LockedState(false)
        let directoryChange: @Sendable () -> Void = { [weak self] in
            // The log appeared: watch it too.
            if let self, !watchesLog.withLock({ $0 }), let source = Self.watchWithDispatch(path: walPath, queue: queue, onChange: onChange) {
                watchesLog.withLock { $0 = true }
                self.append(source)
            }
            onChange()
        }
        guard let source = Self.watchWithDispatch(path: directory, queue: queue, onChange: directoryChange) else { return nil }
        locked.withLock { $0.sources.append(source) }
        if let source = Self.watchWithDispatch(path: walPath, queue: queue, onChange: onChange) {
            watchesLog.withLock { $0 = true }
            locked.withLock { $0.sources.append(source) }
        }
        #else
        return nil
        #endif
    }

    deinit { cancel() }

    /// Stops watching.
    func cancel() {
        let (sources, wasPaused) = locked.withLock { locked in
            locked.isCancelled = true
            #if os(Linux) || os(Android)
            if let subscription = locked.subscription { INotifyCenter.shared.unsubscribe(subscription) }
            locked.subscription = nil
            #endif
            defer {
                locked.sources = []
                locked.isPaused = false
            }
            return (locked.sources, locked.isPaused)
        }
        for source in sources {
            #if !(os(Linux) || os(Android))
            // (A suspended source must be resumed before it goes.)
            if wasPaused { source.resume() }
            #endif
            source.cancel()
        }
    }

    /// Makes no event until `resume()`.
    func pause() {
        locked.withLock { locked in
            guard !locked.isPaused, !locked.isCancelled else { return }
            locked.isPaused = true
            #if os(Linux) || os(Android)
            if let subscription = locked.subscription { INotifyCenter.shared.pause(subscription) }
            #else
            for source in locked.sources { source.suspend() }
            #endif
        }
    }

    func resume() {
        locked.withLock { locked in
            guard locked.isPaused else { return }
            locked.isPaused = false
            #if os(Linux) || os(Android)
            if let subscription = locked.subscription { INotifyCenter.shared.resume(subscription) }
            #else
            for source in locked.sources { source.resume() }
            #endif
        }
    }

    #if canImport(Darwin)
    private func append(_ source: any DispatchSourceProtocol) {
        let cancelled = locked.withLock { locked in
            if !locked.isCancelled {
                if locked.isPaused { source.suspend() }
                locked.sources.append(source)
            }
            return locked.isCancelled
        }
        if cancelled { source.cancel() }
    }
    #endif

    #if canImport(Darwin)
    /// A dispatch source on the file or directory at `path`, resumed.
    private static func watchWithDispatch(path: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) -> (
        any DispatchSourceProtocol
    )? {
        let descriptor = open(path, O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        let source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: [.write, .extend, .delete, .rename], queue: queue)
        source.setEventHandler(handler: onChange)
        source.setCancelHandler { close(descriptor) }
        source.resume()
        return source
    }
    #endif
}
