#ifndef SCHEDBENCH_CCALLGRIND_H
#define SCHEDBENCH_CCALLGRIND_H

/// Callgrind client requests for counting instructions around a measured region.
/// Every function is a no-op (and `schedbench_callgrind_available` returns 0) when the
/// process does not run under valgrind or the valgrind headers were absent at build time.

/// 1 when running under valgrind with the callgrind client requests compiled in.
int schedbench_callgrind_available(void);

/// Switches instrumentation on, for every thread of the process.
void schedbench_callgrind_begin(void);

/// Switches instrumentation off again; the counts stay for the dump at exit.
void schedbench_callgrind_end(void);

#endif
