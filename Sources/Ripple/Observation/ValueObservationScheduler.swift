import Dispatch

/// Where and when a value observation delivers its values.
public enum ValueObservationScheduler: Sendable {
    /// The initial value is delivered synchronously, during `start`, on the calling thread;
    /// later values asynchronously on the main queue.
    case immediate
    /// Every value is delivered asynchronously on the queue.
    case async(onQueue: DispatchQueue)

    var queue: DispatchQueue {
        switch self {
        case .immediate: return .main
        case .async(let queue): return queue
        }
    }
}
