#define _GNU_SOURCE
#include "CProcess.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <pthread.h>
#include <string.h>
#include <spawn.h>
#include <sys/socket.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int schedbench_name_thread(pthread_t thread, const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
    return pthread_setname_np(thread, cut);
}

int schedbench_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return -1;
#endif
}

int schedbench_socketpair_cloexec(int fds[2]) {
#if defined(SOCK_CLOEXEC)
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
#else
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

long schedbench_send_nosignal(int fd, const void *buffer, unsigned long length) {
#if defined(MSG_NOSIGNAL)
    return (long)send(fd, buffer, length, MSG_NOSIGNAL);
#else
    return (long)send(fd, buffer, length, 0);
#endif
}

#if defined(__linux__)
#include <sys/prctl.h>

int schedbench_die_with_parent(int signal) {
    return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0);
}

int schedbench_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
#else
int schedbench_die_with_parent(int signal) {
    (void)signal;
    return -1;
}

int schedbench_pipe_cloexec(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}
#endif

void schedbench_describe_current_thread(char *buffer, unsigned long length) {
    char name[32] = "?";
#if defined(__linux__)
    pthread_getname_np(pthread_self(), name, sizeof name);
    snprintf(buffer, length, "%s (tid %ld)", name, (long)syscall(SYS_gettid));
#else
    snprintf(buffer, length, "%s", name);
#endif
}

void schedbench_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}

int schedbench_spawn_on_processor(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                                  const posix_spawnattr_t *attributes, char *const argv[], char *const envp[],
                                  int processor) {
    if (processor < 0) return posix_spawn(pid, path, actions, attributes, argv, envp);
    if (processor >= CPU_SETSIZE) return EINVAL;
    cpu_set_t before, one;
    if (sched_getaffinity(0, sizeof before, &before) != 0) return errno;
    CPU_ZERO(&one);
    CPU_SET(processor, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return errno;
    int result = posix_spawn(pid, path, actions, attributes, argv, envp);
    sched_setaffinity(0, sizeof before, &before);
    return result;
}

int schedbench_allowed_processors(int *processors, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int count = 0;
    for (int processor = 0; processor < CPU_SETSIZE && count < capacity; processor++) {
        if (CPU_ISSET(processor, &set)) processors[count++] = processor;
    }
    return count;
}
