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

    /// Runs `action` (the delivery of values or errors), asynchronously; every action
    /// must run, once. An observation has at most one action in its scheduler at a time
    /// (the action delivers, in order, the values that waited, and schedules the next one
    /// when more came): a scheduler need not keep actions in order.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// A scheduler that delivers values on the main actor: ``ValueObservationScheduler/immediate``
/// and ``ValueObservationScheduler/mainActor``,
/// for the `start` method of main-actor code, whose handlers are main-actor isolated.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {}

/// Delivers every value asynchronously on a dispatch queue: ``ValueObservationScheduler/async(onQueue:)``.
///
/// Values arrive in order, on a concurrent queue too: an observation schedules one
/// delivery at a time, which delivers the values that came meanwhile, in order.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    public let queue: DispatchQueue

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
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

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
    /// The initial value is delivered synchronously, during `start`; later values
    /// asynchronously, on the main actor.
    public static var immediate: ImmediateValueObservationScheduler { ImmediateValueObservationScheduler() }
}

extension ValueObservationMainActorScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Every value is delivered asynchronously, on the main actor.
    public static var mainActor: DelayedMainActorValueObservationScheduler { DelayedMainActorValueObservationScheduler() }
}

/// Delivers values from a task, on the cooperative thread pool:
/// ``ValueObservationScheduler/task``.
public struct TaskValueObservationScheduler: ValueObservationScheduler {
    let priority: TaskPriority?

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        // One task per action: an observation schedules one action at a time, which
        // delivers the values that waited, in order.
        Task(priority: priority) { action() }
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// Every value is delivered from a new task, on the cooperative thread pool.
    public static var task: TaskValueObservationScheduler { TaskValueObservationScheduler(priority: nil) }

    /// Every value is delivered from a new task of `priority`.
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}
