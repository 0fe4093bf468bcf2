#ifndef SCHEDBENCH_CCALLGRIND_H
#define SCHEDBENCH_CCALLGRIND_H

/// Callgrind client requests for counting instructions around a measured region.
/// Every function is a no-op (and `schedbench_callgrind_available` returns 0) when the
/// process does not run under valgrind or the valgrind headers were absent at build time.

/// 1 when running under valgrind with the callgrind client requests compiled in.
int schedbench_callgrind_available(void);

/// Switches instrumentation on, for every thread of the process.
void schedbench_callgrind_begin(void);

/// Switches instrumentation off again; the counts stay until the next dump or zeroing.
void schedbench_callgrind_end(void);

/// Sets the counts to zero.
void schedbench_callgrind_zero(void);

/// Writes the counts so far to a dump of their own (the output file's name with `.N`
/// appended, N counting the dumps from 1), whose `desc: Trigger:` line ends with `label`,
/// and sets them to zero. With callgrind's default `--separate-threads=no` the dump covers
/// every thread.
void schedbench_callgrind_dump(const char *label);

#endif
