#ifndef RXSCHEDULERS_CDISPATCHMAIN_H
#define RXSCHEDULERS_CDISPATCHMAIN_H

/// Whether libdispatch's current queue on this thread is the main queue itself: inside a
/// main-queue block (on whichever thread runs it, also after `dispatchMain()`), or on the
/// main thread outside any other queue's block. One thread-local read in libdispatch,
/// about 6 ns on the project's machine against about 20 ns for a queue-specific key.
///
/// It answers no for a queue that only *targets* the main queue; callers that must count
/// those as the main queue fall back to a `DispatchSpecificKey` when this answers no.
///
/// `dispatch_get_current_queue` is deprecated API (its answer is meaningless for most
/// uses); comparing it with the main queue is the one use it keeps an exact meaning for.

#if defined(__APPLE__)
#include <dispatch/dispatch.h>
static inline int rx_current_queue_is_main(void) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    return dispatch_get_current_queue() == dispatch_get_main_queue();
#pragma clang diagnostic pop
}
#else
/// libdispatch's exports, declared under names of our own so that they cannot clash with
/// the declarations of the Dispatch module's C headers.
void *rx_dispatch_get_current_queue(void) __asm__("dispatch_get_current_queue");
extern char rx_dispatch_main_q __asm__("_dispatch_main_q");

static inline int rx_current_queue_is_main(void) {
    return rx_dispatch_get_current_queue() == (void *)&rx_dispatch_main_q;
}
#endif

#endif
