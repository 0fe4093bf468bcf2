#ifndef RXSCHEDULERS_COPAQUEPUBLISH_H
#define RXSCHEDULERS_COPAQUEPUBLISH_H

/// Stores `value` into the word at `word` with release ordering, in a call Swift's
/// optimizer cannot see into.
///
/// Why a call: Swift's ARC optimizer does not order retains against atomic operations
/// on other memory. In a producer that writes a value into a queue slot and then
/// publishes the slot with a release store, it moved the value's retain (and the
/// handle's) below the store (seen in the disassembly of `DispatchActionQueue.enqueue`,
/// and behind a crash: "deallocated with non-zero retain count"),
/// so the consumer could run and release the value first. Nothing may move a retain
/// past a call that might release, so retains stay above this one. Costs a call.
void rx_opaque_publish(void *_Nonnull word, long value);

/// `rx_opaque_publish` for a one-byte flag.
void rx_opaque_publish_byte(void *_Nonnull byte, unsigned char value);

#endif
