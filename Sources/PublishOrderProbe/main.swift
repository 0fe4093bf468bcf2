// The subject of the publish-order check (scripts/check-publish-order.py), which runs this
// program under gdb. For each publish path of the core's lock-free queues, it reads where the
// next producer will write and publish (`PublishSite`) and calls `publish_probe_arm` with
// those addresses; the check breaks there, sets a hardware watchpoint on the flag, and at the
// instant the producer's publishing store lands reads the reference counts of the payload
// and of the chunk, then watches the producer's thread until its call returns
// (`publish_probe_done`). Each count must be at least 2 at the publish (the slot's, or the
// handle's, reference and the one this program keeps), and no retain of either may come
// after it. A retain after the publish (the optimizer sinking it below a store it does not
// order retains against) lets a consumer that takes the slot at that instant release the
// reference before it exists: with no other reference held, it frees the object under the
// producer; with one held by a temporary, it is a latent bug the next caller trips.
//
// Case 0 is the check's own seeded instance, written here on purpose: it publishes a slot
// and retains its payload after the store. The check must find it, or it proves nothing.
//
// Build it in release without traits, as users ship the core:
//     swift build -c release --product PublishOrderProbe
// Run alone it only prints its cases (nothing is watched).

import Dispatch
import Foundation
import RxSchedulers
import Synchronization

/// A payload whose reference count the check reads.
final class Payload {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// Where the check breaks before each case, by this symbol name. Its arguments, in the
/// registers Swift passes them in on x86-64 (rdi, rsi, rdx, rcx, r8): the case number, the
/// flag's address and size in bytes, the payload object, and the chunk the handle keeps (or
/// nil).
@_silgen_name("publish_probe_arm")
@inline(never) @_optimize(none)
func publishProbeArm(
    _ caseNumber: Int, _ flag: UnsafeRawPointer, _ flagBytes: Int, _ object: UnsafeRawPointer, _ chunk: UnsafeRawPointer?
) {
    // Used, so that the optimizer keeps every argument in its register at the call.
    lastArmed = [caseNumber, Int(bitPattern: flag), flagBytes, Int(bitPattern: object), Int(bitPattern: chunk)]
    armedCases += 1
}

/// Where the check stops watching the case armed last: after the producer's call returned.
/// Between the publish and this call, a retain of the payload or of the chunk on the
/// producer's thread is a retain the publish came before.
@_silgen_name("publish_probe_done")
@inline(never) @_optimize(none)
func publishProbeDone(_ caseNumber: Int) {
    lastDone = caseNumber
}

nonisolated(unsafe) var armedCases = 0
nonisolated(unsafe) var lastArmed: [Int] = []
nonisolated(unsafe) var lastDone = -1

func arm(_ caseNumber: Int, _ name: String, site: PublishSite, object: AnyObject) {
    print("probe-case \(caseNumber) \(name)")
    publishProbeArm(caseNumber, site.flag, site.flagBytes, UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), site.chunk)
}

// MARK: Case 0: the seeded instance

/// Retains `payload` in a call the optimizer cannot hoist above the caller's store.
@inline(never)
func retainLate(_ payload: Payload) {
    _ = Unmanaged.passUnretained(payload).retain()
}

func seededRetainAfterPublish() {
    let payload = Payload(0)
    let slot = UnsafeMutablePointer<Unmanaged<Payload>>.allocate(capacity: 1)
    let flag = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
    flag.initialize(to: Atomic(0))
    let site = PublishSite(flag: UnsafeRawPointer(flag), flagBytes: 8, chunk: nil)
    arm(0, "seeded.retainAfterPublish", site: site, object: payload)
    slot.initialize(to: Unmanaged.passUnretained(payload))
    flag.pointee.store(1, ordering: .releasing)
    retainLate(payload)
    publishProbeDone(0)
    // The consumer's side: take the slot's reference.
    if flag.pointee.load(ordering: .acquiring) == 1 { slot.pointee.release() }
    withExtendedLifetime(payload) {}
    slot.deallocate()
    flag.deallocate()
}

// MARK: The core's publish paths

func mpscQueueEnqueue() {
    let queue = MPSCQueue<Payload>()
    let payload = Payload(1)
    arm(1, "MPSCQueue.enqueue(Payload)", site: queue.nextPublishSite, object: payload)
    queue.enqueue(payload)
    publishProbeDone(1)
    withExtendedLifetime(payload) {}
    precondition(queue.dequeue() === payload)
}

func mpscQueueEnqueueEvent() {
    // The element type observe(on:)'s drain queues.
    let queue = MPSCQueue<Event<Payload>>()
    let payload = Payload(2)
    arm(2, "MPSCQueue.enqueue(Event<Payload>)", site: queue.nextPublishSite, object: payload)
    queue.enqueue(.next(payload))
    publishProbeDone(2)
    withExtendedLifetime(payload) {}
    guard case .next(let element)? = queue.dequeue(), element === payload else { preconditionFailure("the event was not queued") }
}

func batchedSchedule() {
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "publish-order-probe", dispatch: .batched)
    let ran = DispatchSemaphore(value: 0)
    let payload = Payload(3)
    arm(3, "SerialDispatchQueueScheduler(.batched).schedule", site: scheduler.nextPublishSite!, object: payload)
    let handle = scheduler.schedule(payload) { _ in
        ran.signal()
        return Disposables.create()
    }
    publishProbeDone(3)
    withExtendedLifetime(payload) {}
    ran.wait()
    handle.dispose()
}

func mainFromBackground() {
    // From a thread other than the main one, so that the action is queued, not run inline.
    // The main queue never runs in this program: the action stays queued until exit.
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let scheduler = MainScheduler.instance
        let payload = Payload(4)
        arm(4, "MainScheduler.instance.schedule (from a background thread)", site: scheduler.nextPublishSite!, object: payload)
        let handle = scheduler.schedule(payload) { _ in Disposables.create() }
        publishProbeDone(4)
        withExtendedLifetime(payload) {}
        withExtendedLifetime(handle) {}
        done.signal()
    }
    thread.start()
    done.wait()
}

/// A disposable whose reference count the check reads.
final class ProbeDisposable: Disposable {
    func dispose() {}
}

func singleAssignment() {
    let holder = SingleAssignmentDisposable()
    let payload = ProbeDisposable()
    arm(5, "SingleAssignmentDisposable.setDisposable", site: holder.publishSite, object: payload)
    holder.setDisposable(payload)
    publishProbeDone(5)
    withExtendedLifetime(payload) {}
    holder.dispose()
}

seededRetainAfterPublish()
mpscQueueEnqueue()
mpscQueueEnqueueEvent()
batchedSchedule()
mainFromBackground()
singleAssignment()
print("probe-done \(armedCases)")
