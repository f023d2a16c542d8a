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
/// Values arrive in order, on a concurrent queue too: they go through a serial queue that
/// targets `queue`.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    public let queue: DispatchQueue
    /// `queue` itself when it is the main queue (serial, and main-actor code checks it),
    /// else a serial queue that targets it.
    private let deliveryQueue: DispatchQueue

    public init(queue: DispatchQueue) {
        self.queue = queue
        self.deliveryQueue = queue === DispatchQueue.main
            ? queue
            : DispatchQueue(label: "Ripple.ValueObservation.delivery", target: queue)
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        deliveryQueue.async(execute: action)
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
