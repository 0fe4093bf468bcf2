// Is a slow spell of the machine the processor's clock, or a neighbour on the same core?
//
// One thread times, in turn and many times over, three blocks of about 0.1-0.3 ms:
//   - a chain of dependent multiplies (bound by latency: another hyperthread on the same
//     core, competing for its execution ports, barely slows it; a lower clock does);
//   - 10,000 malloc/free pairs of 48 bytes (the C library's allocator);
//   - four interleaved add/xor chains (bound by throughput: slowed by a busy sibling).
// The allocator blocks are sorted into fast (under 1.3x the fastest) and slow (over 1.5x),
// and each of the other blocks is reported relative to its own fastest, apart for the two.
// If the spells were the clock, both chains would slow with the allocator; if they are a
// sibling hyperthread's load, the multiply chain stays and the add/xor chain slows.
//
//   cc -O2 2026-11-28-interference-probe.c -o probe && ./probe
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

int main(void) {
    enum { blocks = 6000 };
    static double multiply[blocks], allocate[blocks], addxor[blocks];
    uint64_t x = 1;
    for (int b = 0; b < blocks; b++) {
        double t0 = seconds();
        for (int i = 0; i < 100000; i++) x = x * 6364136223846793005ULL + 1;
        sink = x;
        double t1 = seconds();
        for (int i = 0; i < 10000; i++) {
            void *p = malloc(48);
            sink = (uint64_t)p;
            free(p);
        }
        double t2 = seconds();
        uint64_t a = 1, c = 2, d = 3, e = 4;
        for (int i = 0; i < 100000; i++) { a += i; c ^= a; d += c; e ^= d; }
        sink = a + c + d + e;
        double t3 = seconds();
        multiply[b] = t1 - t0;
        allocate[b] = t2 - t1;
        addxor[b] = t3 - t2;
    }
    double fastest[3] = {1e9, 1e9, 1e9};
    for (int b = 0; b < blocks; b++) {
        if (multiply[b] < fastest[0]) fastest[0] = multiply[b];
        if (allocate[b] < fastest[1]) fastest[1] = allocate[b];
        if (addxor[b] < fastest[2]) fastest[2] = addxor[b];
    }
    int count[2] = {0, 0};
    double multiplySum[2] = {0, 0}, addxorSum[2] = {0, 0};
    for (int b = 0; b < blocks; b++) {
        int slow;
        if (allocate[b] < 1.3 * fastest[1]) slow = 0;
        else if (allocate[b] > 1.5 * fastest[1]) slow = 1;
        else continue;
        count[slow]++;
        multiplySum[slow] += multiply[b] / fastest[0];
        addxorSum[slow] += addxor[b] / fastest[2];
    }
    printf("allocator blocks: %d fast, %d slow (fastest %.1f us)\n", count[0], count[1], fastest[1] * 1e6);
    for (int slow = 0; slow < 2; slow++) {
        if (count[slow] == 0) continue;
        printf("beside %s allocator blocks: multiply chain %.3f, add/xor chains %.3f of their fastest\n",
               slow ? "slow" : "fast", multiplySum[slow] / count[slow], addxorSum[slow] / count[slow]);
    }
    return 0;
}
