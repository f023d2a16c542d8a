import NIOConcurrencyHelpers

/// The mailbox of one connection: rounds post to it without ever waiting, the
/// connection's writer takes from it at the client's pace (see ``MailboxState``).
final class Mailbox: Sendable {
    private struct State {
        var machine = MailboxState()
        var waiter: CheckedContinuation<MailboxState.Message?, Never>?
        /// When the write under way began, to find out a stalled client.
        var writingSince: ContinuousClock.Instant?
        var lastWriteEnd = ContinuousClock.now
        /// Why the connection ends, once something said so.
        var ending: Ending?
        var endingWaiter: CheckedContinuation<Ending, Never>?
    }

    /// Why a connection's tasks stop: one of them ended (the mailbox finished, a write
    /// failed, the client left), a write waited too long for the client, or the
    /// connection's task was cancelled.
    enum Ending: Equatable, Sendable {
        case aTaskEnded
        case stalled
        case cancelled
    }

    private let state = NIOLockedValueBox(State())

    /// Posts a round's batch; never waits.
    func post(_ batch: LiveBatch) {
        perform { $0.machine.post(batch) }
    }

    /// Drops what waits for the subscriptions `ids`, which the client left.
    func forget(_ ids: [Int]) {
        state.withLockedValue { $0.machine.forget(ids) }
    }

    /// Asks for a heartbeat if nothing was written for `interval`.
    private func postHeartbeatIfIdle(for interval: Duration, now: ContinuousClock.Instant) {
        perform { state in
            guard state.writingSince == nil, state.lastWriteEnd + interval <= now else { return .none }
            return state.machine.postHeartbeat()
        }
    }

    /// The next message, or nil once the mailbox is finished (or the task cancelled).
    func next() async -> MailboxState.Message? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let taken = state.withLockedValue { state -> MailboxState.TakeAction in
                    let action = state.machine.take()
                    if action == .suspend { state.waiter = continuation }
                    return action
                }
                switch taken {
                case .message(let message): continuation.resume(returning: message)
                case .finished: continuation.resume(returning: nil)
                case .suspend: break
                }
            }
        } onCancel: {
            finish()
        }
    }

    /// Ends the mailbox: a waiting `next()` returns nil.
    func finish() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<MailboxState.Message?, Never>? in
            guard state.machine.finish() else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Writes each message with `write`, at the writer's pace, until the mailbox is
    /// finished; the time each write waits tells the watchdog a stalled client.
    func deliver(_ write: (MailboxState.Message) async throws -> Void) async throws {
        while let message = await next() {
            writeBegan(now: .now)
            try await write(message)
            writeEnded(now: .now)
        }
    }

    private func writeBegan(now: ContinuousClock.Instant) {
        state.withLockedValue { $0.writingSince = now }
    }

    private func writeEnded(now: ContinuousClock.Instant) {
        state.withLockedValue {
            $0.writingSince = nil
            $0.lastWriteEnd = now
        }
    }

    /// At a tick of the hub's watchdog: ends a connection whose write waited for the client
    /// for the stall timeout, or asks for a heartbeat if nothing was written for the
    /// heartbeat interval.
    func watch(now: ContinuousClock.Instant, _ configuration: LiveConfiguration) {
        if isStalled(limit: configuration.stallTimeout, now: now) {
            end(.stalled)
        } else {
            postHeartbeatIfIdle(for: configuration.heartbeatInterval, now: now)
        }
    }

    /// Says why the connection ends; the first reason wins.
    func end(_ ending: Ending) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Ending, Never>? in
            guard state.ending == nil else { return nil }
            state.ending = ending
            defer { state.endingWaiter = nil }
            return state.endingWaiter
        }
        waiter?.resume(returning: ending)
    }

    /// Waits until something ends the connection (see ``end(_:)``), or the task is
    /// cancelled.
    func ended() async -> Ending {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ending = state.withLockedValue { state -> Ending? in
                    if state.ending == nil { state.endingWaiter = continuation }
                    return state.ending
                }
                if let ending { continuation.resume(returning: ending) }
            }
        } onCancel: {
            end(.cancelled)
        }
    }

    /// Whether a write has waited for the client for `limit` or more.
    private func isStalled(limit: Duration, now: ContinuousClock.Instant) -> Bool {
        state.withLockedValue { state in
            state.writingSince.map { $0 + limit <= now } ?? false
        }
    }

    /// Outcomes replaced before being sent, over the connection's life.
    var skippedTotal: Int {
        state.withLockedValue { $0.machine.skippedTotal }
    }

    /// Runs an event of the machine under the lock, and resumes the waiting consumer
    /// outside of it.
    private func perform(_ event: (inout State) -> MailboxState.PostAction) {
        let resume = state.withLockedValue { state -> (CheckedContinuation<MailboxState.Message?, Never>, MailboxState.Message)? in
            guard case .resume(let message) = event(&state), let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, message)
        }
        if let (waiter, message) = resume {
            waiter.resume(returning: message)
        }
    }
}
