import Synchronization

/// Where the next producer of a lock-free queue will write its payload and publish it: the
/// addresses the publish-order check watches (`PublishOrderProbe`,
/// `scripts/check-publish-order.py`).
///
/// That check stops the producer in a debugger at the instant its publishing store
/// changes `flag`, with a hardware watchpoint, and reads the reference counts of what the
/// slot holds and of the chunk: every retain the consumer may undo must already be done
/// then. Reading a site is only meaningful with one producer and no claim in flight, and
/// when the next claim stays in the tail chunk (the probe starts from a fresh queue).
package struct PublishSite {
    /// The flag (or flags word) the publish sets.
    package let flag: UnsafeRawPointer
    /// Bytes of the flag: 1 for `MPSCQueue`, a word for `ActionChunk`.
    package let flagBytes: Int
    /// The chunk object whose reference a handle takes before the publish, if any.
    package let chunk: UnsafeRawPointer?

    package init(flag: UnsafeRawPointer, flagBytes: Int, chunk: UnsafeRawPointer?) {
        self.flag = flag
        self.flagBytes = flagBytes
        self.chunk = chunk
    }
}

extension MPSCQueue {
    /// The slot the next `enqueue` fills. Not for use while producers run.
    package var nextPublishSite: PublishSite {
        let word = tail.load(ordering: .acquiring)
        let chunk = Self.unpack(word)
        let index = Int(word >> Self.claimShift)
        precondition(index < Self.chunkCapacity, "nextPublishSite: the tail chunk is full")
        return PublishSite(flag: UnsafeRawPointer(chunk.flags + index), flagBytes: MemoryLayout<Atomic<UInt8>>.size, chunk: nil)
    }
}

extension DispatchActionQueue {
    /// The slot the next `enqueue` fills. Not for use while producers run.
    var nextPublishSite: PublishSite {
        let word = tail.load(ordering: .acquiring)
        let index = Int(word >> Self.claimShift)
        precondition(index < Self.capacity, "nextPublishSite: the tail chunk is full")
        return Self.unpack(word)._withUnsafeGuaranteedRef { chunk in
            PublishSite(
                flag: UnsafeRawPointer(chunk.flags(at: index)), flagBytes: MemoryLayout<Atomic<Int>>.size,
                chunk: UnsafeRawPointer(Unmanaged.passUnretained(chunk).toOpaque()))
        }
    }
}

extension SerialDispatchQueueScheduler {
    /// With `SchedulerDispatch.batched`, the slot the next action scheduled from a thread
    /// that cannot run it inline fills; `nil` per action.
    package var nextPublishSite: PublishSite? {
        if let main = self as? MainScheduler {
            return main.dispatch == .batched ? main.dispatcher.pending.nextPublishSite : nil
        }
        return configuration.batch?.pending.nextPublishSite
    }
}

extension SingleAssignmentDisposable {
    /// Its state word, which `setDisposable` sets (`assignedBit`) after storing the
    /// disposable: a `dispose()` on another thread that sees the bit takes the disposable
    /// and releases it. `state` is the class's first stored property.
    package var publishSite: PublishSite {
        let state = UnsafeRawPointer(_getUnsafePointerToStoredProperties(self))
        precondition(state.load(as: Int.self) == stateBits, "publishSite: state is not the first stored property")
        return PublishSite(flag: state, flagBytes: MemoryLayout<Int>.size, chunk: nil)
    }
}
