#ifndef RXSCHEDULERS_CSPINHINT_H
#define RXSCHEDULERS_CSPINHINT_H

/// Tells the processor that the caller is in a spin-wait loop (x86 `pause`, arm64
/// `yield`): the core saves power and stops speculating through the loop, and a sibling
/// hyper-thread gets the execution units. About 24 ns per call on the project's machine
/// (AMD EPYC); it varies by an order of magnitude between processor generations, so
/// callers bound their waits with a clock, not a count.
static inline void rx_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
