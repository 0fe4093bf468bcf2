import COpaquePublish
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An unbounded lock-free multi-producer single-consumer FIFO queue.
///
/// - Producers: `enqueue` is one atomic read-modify-write (a `fetch_add` on the tail
///   word) plus a release store, and may be called from any number of threads at once.
/// - Consumer: `dequeue` may be called by one thread at a time (callers serialize it,
///   e.g. with a work-in-progress counter); its fast path is plain loads with acquire
///   ordering and no read-modify-write.
/// - Storage: chunks of `chunkCapacity` slots; a steady stream allocates one chunk per
///   `chunkCapacity` elements and nothing per element.
/// - Order: elements enqueued by one thread are dequeued in that order; elements of
///   different threads are dequeued in the order of their claims on the tail word.
///
/// ## How it works, and why it is safe
///
/// The tail word packs the current tail chunk's address (low 48 bits; user-space
/// addresses on x86-64 and arm64 Linux fit, which is checked) with a claim counter
/// (high 16 bits). A producer adds `1 << 48`: the old value names, in one atomic step,
/// a chunk and a slot index in it, so there is no window in which a producer holds a
/// chunk it has not claimed in.
///
/// - Index below the capacity: the slot is the producer's alone. It initializes the
///   element, then sets the slot's flag with a *release* store. The consumer reads the
///   flag with *acquire*, so it sees the element fully written.
/// - Index equal to the capacity: this producer won the chunk boundary. It allocates the
///   next chunk, puts its own element in slot 0 (flag released), links it as the old
///   chunk's `next` (release), then publishes the new chunk in the tail word with the
///   claim counter at 1 (release). Claims other producers made on the old word in the
///   meantime were all at or past the capacity and are simply overwritten.
/// - Index past the capacity: a boundary loser. It touches no chunk memory; it waits
///   (loading the tail word with acquire) only while the word's claim counter is past
///   the capacity — proof that a winner exists and is installing the next chunk — and
///   claims again as soon as it is not. (Waiting at exactly the capacity would deadlock:
///   the chunk is full but the winning claim has not been made, and every producer left
///   could be waiting.)
///
/// A producer writes to a chunk's memory only in a slot it validly claimed or, as the
/// boundary winner, in the chunk's `next` link. The consumer frees a chunk only after
/// it has seen all of its flags set and its `next` link set, so every write to a chunk
/// has happened before it is freed: no hazard pointers or epochs are needed.
///
/// The consumer reports "empty" when the next slot's flag is not set yet, even if a
/// later slot is already published (a producer between claim and publish). Callers that
/// pair every `enqueue` with an increment of a work-in-progress counter after it
/// returns (see the `drain` strategy of `observe(on:)`) never lose such an element: the
/// slow producer's own increment starts or continues the drain that delivers it.
public final class MPSCQueue<Element>: @unchecked Sendable {
    /// Slots per chunk.
    public static var chunkCapacity: Int { 256 }

    @inlinable static var claimShift: UInt { 48 }
    @inlinable static var addressMask: UInt { (1 << 48) - 1 }

    /// Address of the tail chunk | claims on it << 48. Written by every `enqueue`.
    @usableFromInline let tail: Atomic<UInt>
    /// Keeps the producers' tail word and the consumer's position on different lines.
    @usableFromInline let padding = CacheLinePadding()
    /// The chunk the consumer reads (consumer only).
    @usableFromInline var head: Chunk
    /// The next slot the consumer reads in `head` (consumer only). Written by every `dequeue`.
    @usableFromInline var headIndex = 0

    public init() {
        let first = Chunk()
        head = first
        tail = Atomic(Self.pack(first, claims: 0))
    }

    deinit {
        while dequeue() != nil {}
        var chunk: Chunk? = head
        while let current = chunk {
            chunk = current.next
            current.release()
        }
    }

    /// Appends `element`. Safe from any number of threads at once.
    @inlinable
    public func enqueue(_ element: Element) {
        while true {
            let word = tail.wrappingAdd(1 << Self.claimShift, ordering: .acquiringAndReleasing).oldValue
            let index = Int(word >> Self.claimShift)
            let chunk = Self.unpack(word)
            if index < Self.chunkCapacity {
                stressPoint(.queueClaimed)
                chunk.publish(element, at: index)
                return
            }
            if index == Self.chunkCapacity {
                let next = Chunk()
                next.publish(element, at: 0)
                stressPoint(.queueBoundaryWon)
                chunk.link(next)
                tail.store(Self.pack(next, claims: 1), ordering: .releasing)
                return
            }
            Self.awaitNextChunk(tail, at: .queueAwaitingChunk)
        }
    }

    /// Lost the boundary: waits (`Backoff`) until the winner installs the next chunk,
    /// which takes a few hundred nanoseconds unless the winner is preempted. A wait past
    /// 5 s records the tail word once (`StalledChunkWait`), so that a stuck queue shows its
    /// state in a stress run's hang report instead of hanging silently. `point` names the waiting queue to a stress run
    /// (`DispatchActionQueue` claims the same way).
    @usableFromInline
    static func awaitNextChunk(_ tail: borrowing Atomic<UInt>, at point: StressPoint) {
        var backoff = Backoff()
        var reported = false
        let started = MonotonicClock.now()
        while true {
            stressPoint(point)
            let word = tail.load(ordering: .acquiring)
            // Waiting is safe only while claims exceed the capacity: then some producer
            // got exactly `capacity` and is installing the next chunk. At exactly the
            // capacity nobody has won yet — the next claim wins — so retry.
            if Int(word >> claimShift) <= chunkCapacity { return }
            backoff.wait()
            if !reported, backoff.rounds > 1_024, MonotonicClock.now() - started > 5_000_000_000 {
                reported = true
                StalledChunkWait.tailWord.store(word, ordering: .relaxed)
            }
        }
    }

    /// Removes the oldest published element, or returns `nil` when the next one is not
    /// published yet. One consumer at a time.
    @inlinable
    public func dequeue() -> Element? {
        stressPoint(.queueDequeuing)
        if headIndex == Self.chunkCapacity {
            guard let next = head.next else { return nil }
            let finished = head
            head = next
            headIndex = 0
            finished.release()
        }
        guard let element = head.take(at: headIndex) else { return nil }
        headIndex += 1
        return element
    }

    /// Whether the consumer has taken every element claimed so far (consumer only): false
    /// while anything is queued, published or not, including an element whose producer
    /// has claimed its slot and not yet published it. One acquire load of the tail word.
    ///
    /// A claim that happened before the call is seen (the claim is a read-modify-write of
    /// the tail word, read here with acquire). Claims past the capacity (producers waiting
    /// for the next chunk) never equal the consumer's index, so they count too.
    @inlinable
    public func consumerHasTakenEveryClaim() -> Bool {
        let word = tail.load(ordering: .acquiring)
        return Int(word >> Self.claimShift) == headIndex && word & Self.addressMask == UInt(bitPattern: head.address)
    }

    @inlinable
    static func pack(_ chunk: Chunk, claims: UInt) -> UInt {
        let address = UInt(bitPattern: chunk.address)
        precondition(address & ~addressMask == 0, "MPSCQueue: chunk address above 48 bits")
        return claims << claimShift | address
    }

    @inlinable
    static func unpack(_ word: UInt) -> Chunk {
        Chunk(address: UnsafeMutableRawPointer(bitPattern: word & addressMask)!)
    }
}

extension MPSCQueue {
    /// A view of one chunk's manually managed memory: a header (the `next` link), then
    /// `chunkCapacity` flags, then `chunkCapacity` element slots.
    @usableFromInline
    struct Chunk {
        @usableFromInline let address: UnsafeMutableRawPointer

        @inlinable static var flagsOffset: Int { MemoryLayout<Atomic<UInt>>.stride }
        @inlinable static var valuesOffset: Int {
            let end = flagsOffset + chunkCapacity * MemoryLayout<Atomic<UInt8>>.stride
            let alignment = MemoryLayout<Element>.alignment
            return (end + alignment - 1) / alignment * alignment
        }
        @inlinable static var byteCount: Int { valuesOffset + chunkCapacity * MemoryLayout<Element>.stride }
        @inlinable static var alignment: Int { max(MemoryLayout<Element>.alignment, MemoryLayout<Atomic<UInt>>.alignment) }

        /// Allocates and initializes an empty chunk.
        @inlinable
        init() {
            address = .allocate(byteCount: Self.byteCount, alignment: Self.alignment)
            nextLink.initialize(to: Atomic(0))
            for index in 0..<chunkCapacity { (flags + index).initialize(to: Atomic(0)) }
        }

        @inlinable
        init(address: UnsafeMutableRawPointer) {
            self.address = address
        }

        @inlinable var nextLink: UnsafeMutablePointer<Atomic<UInt>> {
            address.assumingMemoryBound(to: Atomic<UInt>.self)
        }

        @inlinable var flags: UnsafeMutablePointer<Atomic<UInt8>> {
            (address + Self.flagsOffset).assumingMemoryBound(to: Atomic<UInt8>.self)
        }

        @inlinable var values: UnsafeMutablePointer<Element> {
            (address + Self.valuesOffset).assumingMemoryBound(to: Element.self)
        }

        /// Writes `element` into a slot this producer owns and releases it. The flag is
        /// set through an opaque call, so that the optimizer keeps the element's retain
        /// before it (see `rx_opaque_publish`).
        @inlinable
        func publish(_ element: Element, at index: Int) {
            (values + index).initialize(to: element)
            rx_opaque_publish_byte(UnsafeMutableRawPointer(flags + index), 1)
        }

        /// Moves the element out of a published slot, or returns `nil` if unpublished.
        /// Reads only: a chunk is never reused, so its flags need no reset, and a consumer
        /// that wrote to the lines producers are filling would bounce them on every event.
        @inlinable
        func take(at index: Int) -> Element? {
            guard flags[index].load(ordering: .acquiring) != 0 else { return nil }
            return (values + index).move()
        }

        /// Sets the next chunk (boundary winner only).
        @inlinable
        func link(_ next: Chunk) {
            nextLink.pointee.store(UInt(bitPattern: next.address), ordering: .releasing)
        }

        /// The next chunk, once linked.
        @inlinable
        var next: Chunk? {
            let bits = nextLink.pointee.load(ordering: .acquiring)
            return bits == 0 ? nil : Chunk(address: UnsafeMutableRawPointer(bitPattern: bits)!)
        }

        /// Frees the chunk; its slots must be empty.
        @inlinable
        func release() {
            address.deallocate()
        }
    }
}
