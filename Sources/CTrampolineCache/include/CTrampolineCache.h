#ifndef RXSCHEDULERS_CTRAMPOLINECACHE_H
#define RXSCHEDULERS_CTRAMPOLINECACHE_H

/// This thread's `CurrentThreadScheduler` trampoline, unretained: a cache in front of
/// the pthread key that owns it. A C thread-local, because Swift has none: reading it is
/// one load from the thread pointer (initial-exec model), against about 60 instructions
/// for `pthread_getspecific` and the lazy global in front of it.
///
/// The owner (the pthread key's destructor releasing the trampoline) clears it before
/// the object goes away, so it never dangles.
extern __thread void *_Nullable rx_trampoline_cache __attribute__((tls_model("initial-exec")));

static inline void *_Nullable rx_trampoline_cache_get(void) {
    return rx_trampoline_cache;
}

static inline void rx_trampoline_cache_set(void *_Nullable trampoline) {
    rx_trampoline_cache = trampoline;
}

#endif
