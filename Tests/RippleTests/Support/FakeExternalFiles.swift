@testable import Ripple

/// A write-ahead log built in memory, in SQLite's documented format
/// (https://www.sqlite.org/fileformat2.html#the_write_ahead_log): a header, then frames of a
/// 24-byte header and one page, each checksum chained from the previous one.
struct FakeWAL {
    static let pageSize = 512
    static var frameSize: Int { WALFile.frameHeaderSize + pageSize }

    private(set) var bytes: [UInt8] = []
    private(set) var salt1: UInt32
    private(set) var salt2: UInt32
    /// The number of frames written in this generation.
    private(set) var frameCount = 0
    /// The checksum of the last frame written (the header's at first).
    private var checksum = WALFile.Checksum()

    init(salt1: UInt32 = 0x1111, salt2: UInt32 = 0x2222) {
        self.salt1 = salt1
        self.salt2 = salt2
        writeHeader()
    }

    /// A checkpoint that restarts the log: a new header with new salts, frames written from
    /// the start again (the old ones stay behind, of the old generation).
    mutating func restart(salt1: UInt32, salt2: UInt32) {
        self.salt1 = salt1
        self.salt2 = salt2
        frameCount = 0
        writeHeader()
    }

    /// Appends a commit of `pages` frames; returns the number of the frame that ends it.
    @discardableResult
    mutating func commit(pages: Int = 1, fill: UInt8 = 0xAB) -> Int {
        for page in 1...pages {
            var header = [UInt8](repeating: 0, count: WALFile.frameHeaderSize)
            put(UInt32(page), at: 0, in: &header)
            put(page == pages ? UInt32(10 + frameCount) : 0, at: 4, in: &header)  // database size: a commit
            put(salt1, at: 8, in: &header)
            put(salt2, at: 12, in: &header)
            let data = [UInt8](repeating: fill, count: Self.pageSize)
            header.withUnsafeBytes { WALFile.accumulate(&checksum, $0[0..<8], bigEndian: false) }
            data.withUnsafeBytes { WALFile.accumulate(&checksum, $0[...], bigEndian: false) }
            put(checksum.s0, at: 16, in: &header)
            put(checksum.s1, at: 20, in: &header)
            write(header + data, at: WALFile.headerSize + frameCount * Self.frameSize)
            frameCount += 1
        }
        return frameCount
    }

    /// Flips a byte of the page of frame `frame` (numbered from 1): its checksum fails.
    mutating func damage(frame: Int) {
        bytes[WALFile.headerSize + (frame - 1) * Self.frameSize + WALFile.frameHeaderSize] ^= 0xFF
    }

    /// Flips a byte of the header's magic number: the log has no valid header.
    mutating func damageHeader() {
        bytes[0] ^= 0xFF
    }

    /// Cuts the log to `count` bytes.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// The wal-index that publishes the commits up to frame `maxFrame`.
    func index(maxFrame: Int? = nil) -> WALIndexHeader {
        WALIndexHeader(salt1: salt1, salt2: salt2, maxFrame: maxFrame ?? frameCount)
    }

    private mutating func writeHeader() {
        var header = [UInt8](repeating: 0, count: WALFile.headerSize)
        put(0x377f_0682, at: 0, in: &header)  // little-endian checksums
        put(3_007_000, at: 4, in: &header)
        put(UInt32(Self.pageSize), at: 8, in: &header)
        put(salt1, at: 16, in: &header)
        put(salt2, at: 20, in: &header)
        checksum = WALFile.Checksum()
        header.withUnsafeBytes { WALFile.accumulate(&checksum, $0[0..<24], bigEndian: false) }
        put(checksum.s0, at: 24, in: &header)
        put(checksum.s1, at: 28, in: &header)
        write(header, at: 0)
    }

    private mutating func write(_ data: [UInt8], at offset: Int) {
        if bytes.count < offset + data.count { bytes += [UInt8](repeating: 0, count: offset + data.count - bytes.count) }
        bytes.replaceSubrange(offset..<(offset + data.count), with: data)
    }

    private func put(_ word: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: word >> (24 - 8 * index)) }
    }
}

/// The files of a database as plain values, for the check of other processes' commits
/// (``ExternalFileReader``): what each read returns is what the test set.
final class FakeExternalFiles: ExternalFileReader {
    var databaseHeader: DatabaseHeader? = DatabaseHeader(isWAL: true, changeCounter: 1)
    var walIndex: WALIndexHeader?
    /// The frames of the log that checkpoints copied into the database.
    var walBackfill: Int? = 0
    /// The write-ahead log; nil when it is not open.
    var wal: FakeWAL?
    var otherWriterHoldsLock: Bool? = false
    var ownTransaction = false
    var writesMainDatabaseOnly = true
    var pages: Int64 = 0
    /// The commit log; nil when its read transaction cannot begin.
    var logEntries: [ExternalChangeVerdict.Entry]? = []
    /// How many whole frames were read from the log.
    private(set) var frameReads = 0

    func readDatabaseHeader() -> DatabaseHeader? { databaseHeader }
    func readWALIndexHeader() -> WALIndexHeader? { walIndex }
    func readWALIndexHeaderAndBackfill() -> (header: WALIndexHeader?, backfill: Int)? { walBackfill.map { (walIndex, $0) } }
    func otherConnectionHoldsWriteLock() -> Bool? { otherWriterHoldsLock }
    func ownTransactionHoldsLock() -> Bool { ownTransaction }
    func transactionWritesMainDatabaseOnly() -> Bool { writesMainDatabaseOnly }
    func pagesWritten() -> Int64 { pages }

    func withWALFile<T>(_ body: (WALFile.Read) -> T) -> T? {
        guard let bytes = wal?.bytes else { return nil }
        return body { offset, buffer in
            let start = Int(offset)
            guard start + buffer.count <= bytes.count else { return false }
            if buffer.count == FakeWAL.frameSize { self.frameReads += 1 }
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<(start + buffer.count)])) }
            return true
        }
    }

    func walLogEntries(generation: UInt32, from frame: Int) -> [ExternalChangeVerdict.Entry] {
        (logEntries ?? []).filter { $0.key.generation == generation && $0.key.previous >= frame }
    }

    func rollbackLogEntries(from counter: UInt32) -> (counter: UInt32, entries: [ExternalChangeVerdict.Entry])? {
        guard let logEntries, let current = databaseHeader?.changeCounter else { return nil }
        return (current, logEntries.filter { $0.key.generation == nil && $0.key.previous >= counter })
    }

    /// Another process (or connection) commits `pages` pages to the log, and publishes
    /// the commit in the wal-index; returns the frame that ends the commit before it.
    @discardableResult
    func otherProcessCommitsToWAL(pages: Int = 1, publishes: Bool = true) -> Int {
        let previous = wal!.frameCount
        wal!.commit(pages: pages)
        if publishes { walIndex = wal!.index() }
        return previous
    }
}
