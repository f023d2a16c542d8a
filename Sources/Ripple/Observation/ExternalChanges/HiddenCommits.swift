/// The writer's own latest commits that changed nothing but Ripple's hidden tables (its
/// subscription in the commit log), each as the marks of the file before and after it.
///
/// A pool's value observation takes a ``LastCommitMark`` just before its first fetch on a
/// reader, and compares it with the file's mark once it is registered on the writer: any
/// commit between may have changed what it read, and it fetches again. These links let it
/// step over the commits that changed nothing an application can read, which the
/// observation's own registration causes (the first observer subscribes in the commit log):
/// without them, every observation that starts along with the first one would fetch twice.
///
/// A link is exact: its `before` mark is read while the commit holds the write lock, so no
/// other commit comes between it and the commit; its `after` mark is the same log
/// generation, ending at the commit's last frame (as SQLite's WAL hook tells it). A commit
/// that started the log over gets no link (the new salts are not known): an observation
/// then fetches again, which is never wrong.
struct HiddenCommits {
    struct Link: Equatable {
        var before: LastCommitMark
        var after: LastCommitMark
    }

    /// The links kept: subscriptions are written once in 30 s at most.
    static let capacity = 8

    private(set) var links: [Link] = []

    /// Records a hidden commit that began at `before` and wrote the log up to `endFrame`.
    mutating func record(before: LastCommitMark, endFrame: Int) {
        // A log started over by this commit: the frames do not follow `before`.
        guard endFrame > before.header.maxFrame else { return }
        var after = before.header
        after.maxFrame = endFrame
        links.append(Link(before: before, after: LastCommitMark(header: after)))
        if links.count > Self.capacity { links.removeFirst() }
    }

    /// Whether the file went from `mark` to `current` through hidden commits only (or
    /// did not move): then nothing an observation reads changed between.
    func onlyHiddenCommits(from mark: LastCommitMark, to current: LastCommitMark) -> Bool {
        var mark = mark
        // Each step follows one link: as many steps as links at most.
        for _ in 0...links.count {
            if mark == current { return true }
            guard let link = links.last(where: { $0.before == mark }) else { return false }
            mark = link.after
        }
        return false
    }
}
