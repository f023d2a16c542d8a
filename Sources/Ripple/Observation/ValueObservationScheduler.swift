import Dispatch
import Foundation

/// Where and when a value observation delivers its values.
///
/// - ``async(onQueue:)``: every value, asynchronously, on a dispatch queue.
/// - ``ValueObservationScheduler/immediate``: the initial value synchronously, during
///   `start`, which must be called on the main actor; later values on the main actor.
/// - ``ValueObservationScheduler/mainActor``: every value, asynchronously, on the main actor.
public protocol ValueObservationScheduler: Sendable {
    /// Whether the initial value is delivered synchronously, during `start`, on the
    /// calling thread.
    func immediateInitialValue() -> Bool

    /// Runs `action` (the delivery of a value or an error), asynchronously. Deliveries
    /// run in the order they are scheduled.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// A scheduler that delivers values on the main actor: ``ValueObservationScheduler/immediate``
/// and ``ValueObservationScheduler/mainActor``,
/// for the `start` method of main-actor code, whose handlers are main-actor isolated.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {}

/// Delivers every value asynchronously on a dispatch queue: ``ValueObservationScheduler/async(onQueue:)``.
///
/// Values arrive in order, on a concurrent queue too: at most one delivery of a scheduler
/// is on `queue` at a time, and it delivers the values scheduled meanwhile in order.
/// (Not a serial queue that targets `queue`: a dispatch queue costs hundreds of bytes, and
/// each observation has its scheduler, W6m.)
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    public let queue: DispatchQueue
    /// The deliveries waiting for their turn; nil when `queue` is the main queue, which is
    /// serial (and which main-actor code checks).
    private let order: LockedState<DeliveryOrder>?

    public init(queue: DispatchQueue) {
        self.queue = queue
        self.order = queue === DispatchQueue.main ? nil : LockedState(DeliveryOrder())
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        guard let order else {
            queue.async(execute: action)
            return
        }
        let startsDrain = order.withLock { $0.append(action) }
        if startsDrain { queue.async { Self.drain(order) } }
    }

    /// On `queue`: runs the deliveries in order, until none is left.
    private static func drain(_ order: LockedState<DeliveryOrder>) {
        while let action = order.withLock({ $0.next() }) {
            action()
        }
    }
}

/// The deliveries of an ``AsyncValueObservationScheduler`` waiting for their turn: a pure
/// FIFO, and whether a drain is under way.
struct DeliveryOrder {
    private var pending = FIFO<@Sendable () -> Void>()
    private var isDraining = false

    /// Adds an action; returns whether a drain must be started.
    mutating func append(_ action: @escaping @Sendable () -> Void) -> Bool {
        pending.append(action)
        defer { isDraining = true }
        return !isDraining
    }

    /// The next action; nil (and the drain is over) when none is left.
    mutating func next() -> (@Sendable () -> Void)? {
        guard let action = pending.popFirst() else {
            isDraining = false
            return nil
        }
        return action
    }
}

/// Delivers the initial value synchronously, during `start`, and later values on the main
/// actor: ``ValueObservationScheduler/immediate``.
///
/// `start` must be called on the main actor. Called elsewhere, the observation does not
/// start: its `onError` handler gets a ``DatabaseError`` (`SQLITE_MISUSE`) that says so.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    public init() {}

    public func immediateInitialValue() -> Bool { true }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        // The main queue is the main actor's executor.
        DispatchQueue.main.async(execute: action)
    }
}

/// Delivers every value asynchronously on the main actor: ``ValueObservationScheduler/mainActor``.
public struct DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    public init() {}

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Every value is delivered asynchronously, on `queue`.
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// The initial value is delivered synchronously, during `start`, which must be called
    /// on the main actor; later values asynchronously, on the main actor.
    ///
    /// ```swift
    /// @MainActor func startObserving() {
    ///     cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
    ///         // handle error
    ///     } onChange: { players in
    ///         self.players = players
    ///     }
    ///     // <- here players is already set.
    /// }
    /// ```
    public static var immediate: ImmediateValueObservationScheduler { ImmediateValueObservationScheduler() }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Every value is delivered asynchronously, on the main actor.
    public static var mainActor: DelayedMainActorValueObservationScheduler { DelayedMainActorValueObservationScheduler() }
}

/// Whether the current code runs on the main actor: on the main thread, or on the main
/// dispatch queue (the main actor's executor), which is not always served by the main
/// thread (after `dispatchMain()`, as test runners on Linux call it).
enum MainActorCheck {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainActor: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}
