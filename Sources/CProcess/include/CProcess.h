#ifndef SCHEDBENCH_CPROCESS_H
#define SCHEDBENCH_CPROCESS_H

/// Asks the kernel to send `signal` to this process when its parent dies (prctl
/// PR_SET_PDEATHSIG; prctl is variadic, so Swift cannot call it directly). Returns 0 on
/// success, -1 where unsupported. A child process of the harness calls it first thing,
/// so that a parent killed outright leaves no orphan running.
int schedbench_die_with_parent(int signal);

/// pipe2(fds, O_CLOEXEC): a pipe whose ends a concurrently spawned process does not
/// inherit (Glibc's Swift overlay hides pipe2, a GNU extension). Returns 0 or -1 with errno.
int schedbench_pipe_cloexec(int fds[2]);

/// A connected pair of Unix stream sockets, both close-on-exec: the request channel to a
/// child. Unlike a pipe, a socket lets the parent write with MSG_NOSIGNAL, so a child that
/// exits without reading costs an EPIPE error instead of a SIGPIPE that would kill the
/// parent. Returns 0 or -1 with errno.
int schedbench_socketpair_cloexec(int fds[2]);

/// send(2) with MSG_NOSIGNAL; returns what send returns.
long schedbench_send_nosignal(int fd, const void *buffer, unsigned long length);

#include <pthread.h>
#include <spawn.h>

/// Names a thread (pthread_setname_np, a GNU extension Swift does not see); names longer
/// than 15 bytes are cut. Returns 0 or an error number.
int schedbench_name_thread(pthread_t thread, const char *name);

/// Adds "close every descriptor from `lowest` up" to a spawn's file actions
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34 and later, a GNU extension Swift
/// does not see). Returns 0, or -1 where the C library lacks it (then nothing is added).
int schedbench_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);
/// Writes the calling thread's name and kernel thread id as "name (tid N)" into `buffer`
/// (pthread_getname_np and gettid are GNU extensions Swift does not see): how a stress
/// hang report names a thread the harness did not start.
void schedbench_describe_current_thread(char *buffer, unsigned long length);

/// posix_spawn, with the child confined to `processor` from its first instruction (and every
/// thread it starts); a negative `processor` leaves it where the kernel puts it. The calling
/// thread's affinity, which the child inherits, is set to that processor around the call
/// and put back after it. Returns 0 or an error number, as posix_spawn does (EINVAL for a
/// processor this thread may not use).
int schedbench_spawn_on_processor(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                                  const posix_spawnattr_t *attributes, char *const argv[], char *const envp[],
                                  int processor);

/// Writes the processors this thread may run on (sched_getaffinity), in ascending order,
/// into `processors`, at most `capacity` of them. Returns how many, or -1 with errno.
int schedbench_allowed_processors(int *processors, int capacity);

/// Makes standard output line-buffered even into a pipe or a file (setvbuf on `stdout`, a
/// C global that Swift 6 code cannot name). Call before any other thread writes to it.
void schedbench_line_buffer_stdout(void);

#endif
