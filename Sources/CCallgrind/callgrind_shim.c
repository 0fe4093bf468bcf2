#include "CCallgrind.h"

// The client requests are macros that expand to a marker instruction sequence valgrind
// recognises; natively they cost a few instructions and do nothing.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SCHEDBENCH_HAVE_CALLGRIND 1
#else
#define SCHEDBENCH_HAVE_CALLGRIND 0
#endif

int schedbench_callgrind_available(void) {
#if SCHEDBENCH_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

void schedbench_callgrind_begin(void) {
#if SCHEDBENCH_HAVE_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
#endif
}

void schedbench_callgrind_end(void) {
#if SCHEDBENCH_HAVE_CALLGRIND
    CALLGRIND_STOP_INSTRUMENTATION;
#endif
}

void schedbench_callgrind_zero(void) {
#if SCHEDBENCH_HAVE_CALLGRIND
    CALLGRIND_ZERO_STATS;
#endif
}

void schedbench_callgrind_dump(const char *label) {
#if SCHEDBENCH_HAVE_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(label);
#else
    (void)label;
#endif
}
