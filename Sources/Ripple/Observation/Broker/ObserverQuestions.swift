/// The questions asked before a statement runs: each application observer is asked
/// `observes(eventsOfKind:)` once for each kind of change the statement may make, and the
/// observers that accept some kind become the execution's active users.
extension DatabaseObservationBroker {
    /// Asks each application observer about the statement's kinds of changes, once. Returns
    /// true when the answers are those of `candidate`, the statement's last execution;
    /// otherwise `answers` holds the observers that accepted some kind, with their masks.
    ///
    /// The answers are compared with the candidate's as they come: a list is made only
    /// when they differ.
    func askObservers(_ cache: CachedActivation, expecting candidate: StatementExecution?) -> Bool {
        // Until the answers differ from the candidate's, they are its first `matchedCount`
        // active users; `answers` holds them all from the first difference on.
        var matchedCount = 0
        var answersDiffer = candidate == nil
        // The list is read in place, not copied: a copy is a retain and a release of its
        // storage, two atomic operations for each statement. An observer
        // that changes the registry while it is asked (by adding or removing observers)
        // moves the rest of the questions to `askObserversAfterRegistryChange`.
        let generation = registry.generation
        // (Observers added while the statement's observers are asked start with the next
        // statement, as those added from other callbacks.)
        let lastIDAtStart = registry.userEntries.last?.id ?? 0
        var index = 0
        while index < registry.userEntries.count {
            defer { index += 1 }
            guard !registry.userEntries[index].isStopped, let observer = registry.userEntries[index].observer else { continue }
            let askedID = registry.userEntries[index].id
            let mask = cache.acceptanceMask(of: observer)
            guard registry.generation == generation else {
                if !answersDiffer, let candidate { answers.append(contentsOf: candidate.answers(count: matchedCount)) }
                askObserversAfterRegistryChange(cache, askedID: askedID, observer: observer, mask: mask, lastID: lastIDAtStart)
                return false
            }
            guard mask != 0 else { continue }
            liveObservers.append(consume observer)
            if !answersDiffer, let candidate, matchedCount < candidate.activeUsers.count,
                candidate.activeUsers[matchedCount].entry === registry.userEntries[index], candidate.activeUsers[matchedCount].mask == mask
            {
                matchedCount += 1
                continue
            }
            if !answersDiffer {
                answersDiffer = true
                answers.append(contentsOf: candidate!.answers(count: matchedCount))
            }
            answers.append((registry.userEntries[index], mask))
        }
        // Fewer active observers than the last execution: the answers differ too.
        if !answersDiffer, let candidate, matchedCount != candidate.activeUsers.count {
            answers.append(contentsOf: candidate.answers(count: matchedCount))
            return false
        }
        return !answersDiffer
    }

    /// The rest of ``askObservers(_:expecting:)`` once an observer changed the registry
    /// while it was asked: `answers` holds the answers so far. The answer of the entry of
    /// `askedID` (`mask`) is kept unless that entry is gone; then the entries registered
    /// after it, up to `lastID` (the last one when the questions began), are asked, from a
    /// copy of the list. (Entries stay in registration order, and their ids grow with it.)
    func askObserversAfterRegistryChange(_ cache: CachedActivation, askedID: Int, observer: any TransactionObserver, mask: UInt64, lastID: Int) {
        let userEntries = registry.userEntries
        if mask != 0, let entry = userEntries.first(where: { $0.id == askedID }) {
            liveObservers.append(observer)
            answers.append((entry, mask))
        }
        for entry in userEntries where entry.id > askedID && entry.id <= lastID && !entry.isStopped {
            guard let observer = entry.observer else { continue }
            let mask = cache.acceptanceMask(of: observer)
            guard mask != 0 else { continue }
            liveObservers.append(observer)
            answers.append((entry, mask))
        }
    }

    /// Asks each application observer about the statement's kinds of changes, once, for a
    /// statement with too many questions for masks: `answers` (with masks 0) and
    /// `unmaskedAcceptances` hold what they accepted.
    func askObserversWithoutMasks(_ cache: CachedActivation) {
        let userEntries = registry.userEntries
        for entry in userEntries where !entry.isStopped {
            guard let observer = entry.observer else { continue }
            let acceptance = cache.activation.acceptance { kind in observer.observes(eventsOfKind: kind) }
            if !acceptance.isEmpty {
                answers.append((entry, 0))
                unmaskedAcceptances.append(acceptance)
                liveObservers.append(observer)
            }
        }
    }

    /// A new execution, for the observers in `answers` (then emptied).
    func makeExecution(of statement: Statement, cache: CachedActivation, totalChanges: CInt) -> StatementExecution {
        let answersFit = cache.questionCount <= StatementActivation.maximumMaskedQuestions
        let activeUsers = answers.enumerated().map { index, answer in
            StatementExecution.ActiveUser(
                entry: answer.entry, mask: answer.mask,
                acceptance: answersFit ? cache.activation.acceptance(mask: answer.mask) : unmaskedAcceptances[index])
        }
        answers.removeAll(keepingCapacity: true)
        unmaskedAcceptances.removeAll()
        return StatementExecution(
            statement: statement, report: statement.report, activeUsers: activeUsers,
            regionIndex: registry.regionIndex, registryGeneration: registry.generation, totalChanges: totalChanges)
    }
}
