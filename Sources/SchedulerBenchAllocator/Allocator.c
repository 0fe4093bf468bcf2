// jemalloc for a SchedulerBench executable (see the header).
#include <stddef.h>
#include <jemalloc/jemalloc.h>
#include "SchedulerBenchAllocator.h"

typedef int (*schedbench_mallctl_t)(const char *, void *, size_t *, void *, size_t);

// Defined by the SchedulerBench runtime (AllocationCounter).
extern void schedbench_register_mallctl(schedbench_mallctl_t mallctl);

// Runs before main: a constructor is kept by the linker whatever else is unused, and its
// reference to mallctl keeps libjemalloc among the executable's libraries.
__attribute__((constructor)) static void schedbench_allocator_register(void) {
    schedbench_register_mallctl(mallctl);
}

int schedbench_allocator_linked(void) { return 1; }
