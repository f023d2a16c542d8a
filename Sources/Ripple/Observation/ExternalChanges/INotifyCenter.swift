#if os(Linux) || os(Android)
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's one inotify instance, shared by the ``FileWatch``es of every database the
/// process observes.
///
/// The kernel limits inotify instances per user (128 by default), not watches (tens of
/// thousands): one instance per database would stop a server that observes hundreds of
/// database files at the 128th (its later databases would fall back to the safety poll).
/// Here every watched directory costs one watch, whatever the number of databases in it.
///
/// A directory's kernel watch exists while one of its subscriptions is not paused: a
/// paused subscription (a check is planned) gets no event, and when all are paused the
/// kernel makes none. Events are read on the thread of ``WatchLoop`` while some
/// subscription exists; a subscription's handler is called there for the events that name
/// one of its files (all of them when the kernel lost events).
final class INotifyCenter: Sendable {
    static let shared = INotifyCenter()

    struct Subscription: Hashable {
        let directory: String
        let id: Int
    }

    private struct Subscriber {
        let names: Set<String>
        let handler: @Sendable () -> Void
        var isPaused = false
    }

    private struct Directory {
        var watch: Int32?
        var subscribers: [Int: Subscriber] = [:]
        var wantsWatch: Bool { subscribers.values.contains { !$0.isPaused } }
    }

    /// The subscriptions and the kernel's watches, behind the lock.
    private struct Registry {
        /// The instance, opened by the first subscription and kept for the process's life.
        var descriptor: Int32?
        /// Whether the loop reads the instance (while some subscription exists).
        var isRead = false
        var directories: [String: Directory] = [:]
        var directoryOfWatch: [Int32: String] = [:]
        var nextID = 0

        mutating func openedDescriptor() -> Int32? {
            if let descriptor { return descriptor }
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            return descriptor
        }

        /// Adds or removes the directory's kernel watch, as its subscriptions want.
        mutating func updateWatch(of path: String, descriptor: Int32) {
            guard var directory = directories[path] else { return }
            if directory.wantsWatch, directory.watch == nil {
                // (Should the directory be gone, the safety poll remains.)
                let watch = inotify_add_watch(descriptor, path, INotifyCenter.mask)
                if watch >= 0 {
                    directory.watch = watch
                    directoryOfWatch[watch] = path
                }
            } else if !directory.wantsWatch, let watch = directory.watch {
                inotify_rm_watch(descriptor, watch)
                directoryOfWatch[watch] = nil
                directory.watch = nil
            }
            directories[path] = directory
        }

        /// The handlers that events name, by their watch (all of them when the kernel lost
        /// events); a watch removed meanwhile names none.
        func handlers(of events: INotifyEvents) -> [@Sendable () -> Void] {
            let named: [(directory: Directory, names: Set<String>?)] =
                events.overflowed
                ? directories.values.map { ($0, nil) }
                : events.names.compactMap { watch, names in
                    directoryOfWatch[watch].flatMap { directories[$0] }.map { ($0, names) }
                }
            return named.flatMap { directory, names in
                directory.subscribers.values
                    .filter { subscriber in
                        !subscriber.isPaused && (names.map { !$0.isDisjoint(with: subscriber.names) } ?? true)
                    }
                    .map(\.handler)
            }
        }
    }

    static let mask = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_CLOSE_WRITE)

    private let registry = LockedState(Registry())

    /// Calls `handler` when a file named one of `names` changes in `directory`; nil when
    /// inotify refuses (no instance left, a directory it cannot watch).
    func subscribe(directory: String, names: Set<String>, handler: @escaping @Sendable () -> Void) -> Subscription? {
        registry.withLock { registry in
            guard let descriptor = registry.openedDescriptor() else { return nil }
            registry.nextID += 1
            let subscription = Subscription(directory: directory, id: registry.nextID)
            registry.directories[directory, default: Directory()].subscribers[registry.nextID] = Subscriber(names: names, handler: handler)
            registry.updateWatch(of: directory, descriptor: descriptor)
            guard registry.directories[directory]?.watch != nil, updateReading(&registry, descriptor: descriptor) else {
                remove(subscription, from: &registry, descriptor: descriptor)
                return nil
            }
            return subscription
        }
    }

    func unsubscribe(_ subscription: Subscription) {
        registry.withLock { registry in
            guard let descriptor = registry.descriptor else { return }
            remove(subscription, from: &registry, descriptor: descriptor)
        }
    }

    /// No event for `subscription` until `resume`.
    func pause(_ subscription: Subscription) {
        setPaused(true, subscription)
    }

    /// Events again for `subscription`, from now on.
    func resume(_ subscription: Subscription) {
        setPaused(false, subscription)
    }

    private func setPaused(_ isPaused: Bool, _ subscription: Subscription) {
        registry.withLock { registry in
            guard let descriptor = registry.descriptor,
                registry.directories[subscription.directory]?.subscribers[subscription.id] != nil
            else { return }
            registry.directories[subscription.directory]!.subscribers[subscription.id]!.isPaused = isPaused
            registry.updateWatch(of: subscription.directory, descriptor: descriptor)
        }
    }

    // MARK: Under the lock

    private func remove(_ subscription: Subscription, from registry: inout Registry, descriptor: Int32) {
        registry.directories[subscription.directory]?.subscribers[subscription.id] = nil
        registry.updateWatch(of: subscription.directory, descriptor: descriptor)
        if registry.directories[subscription.directory]?.subscribers.isEmpty == true {
            registry.directories[subscription.directory] = nil
        }
        updateReading(&registry, descriptor: descriptor)
    }

    /// Has the loop read the instance while some subscription exists, and only then (its
    /// thread then ends when no timer is left). False when the loop cannot read it.
    @discardableResult
    private func updateReading(_ registry: inout Registry, descriptor: Int32) -> Bool {
        let wantsReading = !registry.directories.isEmpty
        guard wantsReading != registry.isRead else { return true }
        // (The loop's lock is taken under this one, never the other way round: the loop
        // calls `readEvents` without holding its own.)
        let reader: (descriptor: Int32, handler: WatchLoop.Action)? =
            wantsReading
            ? (descriptor, { [weak self] in self?.readEvents() })
            : nil
        guard WatchLoop.shared.setReader(reader) else { return false }
        registry.isRead = wantsReading
        return true
    }

    // MARK: Events

    /// On the loop's thread: reads the pending events, and calls the handlers they concern.
    private func readEvents() {
        guard let descriptor = registry.withLock({ $0.descriptor }) else { return }
        let events = INotifyEvents.readPending(descriptor)
        let handlers = registry.withLock { $0.handlers(of: events) }
        for handler in handlers { handler() }
    }
}

/// The events pending on an inotify descriptor: the names each watch reported, and
/// whether the kernel lost events.
struct INotifyEvents {
    var names: [Int32: Set<String>] = [:]
    var overflowed = false

    /// Reads until no event is pending (the descriptor is non-blocking).
    static func readPending(_ descriptor: Int32) -> INotifyEvents {
        var events = INotifyEvents()
        // Not zeroed first (8 KB of memset at each wake-up, for every commit batch of the
        // process's own): only the bytes `read` wrote are parsed.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: MemoryLayout<Int32>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { break }
            events.parse(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return events
    }

    /// Parses a buffer of the kernel's `struct inotify_event`: wd (4 bytes), mask (4),
    /// cookie (4), len (4), then `len` bytes of NUL-padded name.
    mutating func parse(_ bytes: UnsafeRawBufferPointer) {
        let headerSize = 16
        var offset = 0
        while offset + headerSize <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let eventMask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + length, bytes.count)
            if eventMask & UInt32(IN_Q_OVERFLOW) != 0 {
                overflowed = true
            } else if nameEnd > nameStart {
                let name = String(decoding: bytes[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
                names[watch, default: []].insert(name)
            }
            offset = nameStart + length
        }
    }
}
#endif
