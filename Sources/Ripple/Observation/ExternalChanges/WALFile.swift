import Foundation

/// Reads the commits a write-ahead log holds, from its documented file format
/// (https://www.sqlite.org/fileformat2.html#the_write_ahead_log): a 32-byte header, then
/// frames of a 24-byte header and one page each. A frame whose "database size" field is not
/// zero ends a commit.
///
/// Only valid frames count: a frame is valid when its salts are the header's and its
/// checksum, which chains from the header through every frame before it, matches. Frames
/// left by an earlier generation of the log (before a checkpoint reset it), by a transaction
/// that rolled back, or half written by a process that died, are not.
///
/// Pure: it reads bytes through a closure, so that tests give it any bytes.
enum WALFile {
    static let headerSize = 32
    static let frameHeaderSize = 24

    /// Reads `buffer.count` bytes at `offset`; false when the file has fewer.
    typealias Read = (_ offset: Int64, _ buffer: UnsafeMutableRawBufferPointer) -> Bool

    /// What identifies one generation of the log: a checkpoint that resets the log
    /// writes a new header with new salts.
    struct Header: Equatable {
        var pageSize: Int
        var salt1: UInt32
        var salt2: UInt32
        /// Whether checksums read the bytes as big-endian words (the magic number says so).
        var bigEndianChecksums: Bool
        var checksum: Checksum
    }

    /// A running checksum: two 32-bit sums.
    struct Checksum: Equatable {
        var s0: UInt32 = 0
        var s1: UInt32 = 0
    }

    /// Just after a valid commit frame of one generation of the log (frame 0: just after
    /// the header), with the checksum that frame stores: where the next scan goes on.
    struct Position: Equatable {
        var salt1: UInt32
        var salt2: UInt32
        /// The number of frames up to the position.
        var frame: Int
        /// The checksum stored in that frame (the header's for frame 0).
        var checksum: Checksum
    }

    enum ScanResult: Equatable {
        /// No log, or no valid header: nothing can be counted.
        case unreadable
        /// The log is not the generation of the position any longer (a checkpoint reset it,
        /// or a commit frame the position stood on was overwritten): commits may be gone
        /// unseen.
        case positionLost
        /// The commits after the position: the frame number that ends each one, and the
        /// position after the last one.
        case commits(endFrames: [Int], end: Position)
    }

    /// Reads the header, checking its checksum.
    static func header(_ read: Read) -> Header? {
        var bytes = [UInt8](repeating: 0, count: headerSize)
        let complete = bytes.withUnsafeMutableBytes { read(0, $0) }
        guard complete else { return nil }
        let magic = bigEndianWord(bytes, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { return nil }
        let bigEndian = magic == 0x377f_0683
        let pageSize = Int(bigEndianWord(bytes, 8))
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return nil }
        var checksum = Checksum()
        bytes.withUnsafeBytes { accumulate(&checksum, $0[0..<24], bigEndian: bigEndian) }
        guard checksum == Checksum(s0: bigEndianWord(bytes, 24), s1: bigEndianWord(bytes, 28)) else { return nil }
        return Header(
            pageSize: pageSize, salt1: bigEndianWord(bytes, 16), salt2: bigEndianWord(bytes, 20),
            bigEndianChecksums: bigEndian, checksum: checksum)
    }

    /// The commits after `position` (nil: from the start of the current generation).
    static func scan(from position: Position?, _ read: Read) -> ScanResult {
        guard let header = header(read) else { return .unreadable }
        var current = Position(salt1: header.salt1, salt2: header.salt2, frame: 0, checksum: header.checksum)
        let frameSize = frameHeaderSize + header.pageSize
        if let position {
            guard position.salt1 == header.salt1, position.salt2 == header.salt2 else { return .positionLost }
            if position.frame > 0 {
                // The frame the position stands on must still be the one it was.
                var frameHeader = [UInt8](repeating: 0, count: frameHeaderSize)
                let offset = Int64(headerSize) + Int64(position.frame - 1) * Int64(frameSize)
                let isSame =
                    frameHeader.withUnsafeMutableBytes { read(offset, $0) }
                    && bigEndianWord(frameHeader, 4) != 0
                    && bigEndianWord(frameHeader, 8) == header.salt1 && bigEndianWord(frameHeader, 12) == header.salt2
                    && Checksum(s0: bigEndianWord(frameHeader, 16), s1: bigEndianWord(frameHeader, 20)) == position.checksum
                guard isSame else { return .positionLost }
            }
            current = position
        }
        var endFrames: [Int] = []
        var running = current.checksum
        var index = current.frame
        // Filled by the first read, not zeroed first: most scans (a check after the
        // writer's own commit) find no frame, and zeroing a page cost more than the rest
        // of the scan (measured: Benchmarks/README.md, "Shortcuts").
        var frame: [UInt8] = []
        while true {
            let offset = Int64(headerSize) + Int64(index) * Int64(frameSize)
            let complete: Bool
            if frame.isEmpty {
                var didRead = false
                frame = [UInt8](unsafeUninitializedCapacity: frameSize) { buffer, initializedCount in
                    // (The buffer's capacity may be larger than asked for.)
                    didRead = read(offset, UnsafeMutableRawBufferPointer(start: buffer.baseAddress, count: frameSize))
                    // A short read initialized part of the buffer: the array stays empty.
                    initializedCount = didRead ? frameSize : 0
                }
                complete = didRead
            } else {
                complete = frame.withUnsafeMutableBytes { read(offset, $0) }
            }
            guard complete,
                bigEndianWord(frame, 8) == header.salt1, bigEndianWord(frame, 12) == header.salt2
            else { break }
            frame.withUnsafeBytes { bytes in
                accumulate(&running, bytes[0..<8], bigEndian: header.bigEndianChecksums)
                accumulate(&running, bytes[frameHeaderSize..<frameSize], bigEndian: header.bigEndianChecksums)
            }
            guard running == Checksum(s0: bigEndianWord(frame, 16), s1: bigEndianWord(frame, 20)) else { break }
            index += 1
            if bigEndianWord(frame, 4) != 0 {
                endFrames.append(index)
                current.frame = index
                current.checksum = running
            }
        }
        return .commits(endFrames: endFrames, end: current)
    }

    /// The position just after frame `frame`, if that frame ends a commit of the generation
    /// of `header`.
    static func commitPosition(at frame: Int, header: Header, _ read: Read) -> Position? {
        commitFrameChecksum(at: frame, header: header, read).map {
            Position(salt1: header.salt1, salt2: header.salt2, frame: frame, checksum: $0)
        }
    }

    /// The checksum stored in frame `frame` (numbered from 1), if that frame ends a commit
    /// of the generation of `header`.
    static func commitFrameChecksum(at frame: Int, header: Header, _ read: Read) -> Checksum? {
        guard frame > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: frameHeaderSize)
        let offset = Int64(headerSize) + Int64(frame - 1) * Int64(frameHeaderSize + header.pageSize)
        guard bytes.withUnsafeMutableBytes({ read(offset, $0) }),
            bigEndianWord(bytes, 4) != 0,
            bigEndianWord(bytes, 8) == header.salt1, bigEndianWord(bytes, 12) == header.salt2
        else { return nil }
        return Checksum(s0: bigEndianWord(bytes, 16), s1: bigEndianWord(bytes, 20))
    }

    /// The log's checksum (the documentation's algorithm): adds `bytes`, a multiple of 8
    /// bytes long, to `checksum`.
    static func accumulate(_ checksum: inout Checksum, _ bytes: Slice<UnsafeRawBufferPointer>, bigEndian: Bool) {
        assert(bytes.count % 8 == 0, "checksums cover whole pairs of 32-bit words")
        var s0 = checksum.s0
        var s1 = checksum.s1
        let base = bytes.base.baseAddress! + bytes.startIndex
        var offset = 0
        let count = bytes.count
        while offset < count {
            var x0 = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            var x1 = base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            if bigEndian {
                x0 = UInt32(bigEndian: x0)
                x1 = UInt32(bigEndian: x1)
            } else {
                x0 = UInt32(littleEndian: x0)
                x1 = UInt32(littleEndian: x1)
            }
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
            offset += 8
        }
        checksum = Checksum(s0: s0, s1: s1)
    }

    static func bigEndianWord(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

/// The header of the wal-index (the `-shm` file), whose documented format
/// (https://www.sqlite.org/walformat.html) tells which frames of the write-ahead log hold
/// visible commits: a commit frame is written a little before a writer publishes it there.
struct WALIndexHeader: Equatable {
    var salt1: UInt32
    var salt2: UInt32
    /// The number of the last frame of the last visible commit.
    var maxFrame: Int

    /// The size of one copy of the header; the wal-index holds two, one after the other.
    static let size = 48

    /// Reads the header from the wal-index's first bytes (native byte order), as SQLite's
    /// readers do: the two copies must be equal, else a writer is changing them (nil).
    static func read(_ bytes: UnsafeRawPointer) -> WALIndexHeader? {
        // (Copied once, on the stack, since the memory is shared with other processes; the
        // header is read at each commit of an observed connection.)
        withUnsafeTemporaryAllocation(byteCount: 2 * size, alignment: 8) { copy in
            // (The first copy, then the second, as SQLite's readers; its writers write the
            // second first.)
            _ = memcpy(copy.baseAddress!, bytes, size)
            _ = memcpy(copy.baseAddress! + size, bytes + size, size)
            guard memcmp(copy.baseAddress!, copy.baseAddress! + size, size) == 0, copy[12] != 0 else { return nil }  // isInit
            // The salts are copied from the log's header, as stored there (big-endian).
            return WALIndexHeader(
                salt1: UInt32(bigEndian: copy.loadUnaligned(fromByteOffset: 32, as: UInt32.self)),
                salt2: UInt32(bigEndian: copy.loadUnaligned(fromByteOffset: 36, as: UInt32.self)),
                maxFrame: Int(copy.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
        }
    }

    /// Reads `nBackfill` from the checkpoint information that follows the two copies of
    /// the header: how many frames checkpoints copied into the database (native byte order).
    static func readBackfill(_ bytes: UnsafeRawPointer) -> Int {
        var backfill: UInt32 = 0
        _ = memcpy(&backfill, bytes + 2 * size, 4)
        return Int(backfill)
    }
}
