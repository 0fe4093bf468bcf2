#ifndef SCHEDBENCH_ALLOCATOR_H
#define SCHEDBENCH_ALLOCATOR_H

/// Linking this target links jemalloc into the executable, which then serves its
/// allocations, and hands jemalloc's `mallctl` to the runtime before `main`
/// (`schedbench_register_mallctl`), which reads allocation statistics through it. The
/// SchedulerBench product includes it; the runtime's own tests do not link it
/// (ThreadSanitizer's allocator and jemalloc cannot share a process).
int schedbench_allocator_linked(void);

#endif
