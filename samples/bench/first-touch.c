/* xfer17 (session 14, issue 15): how fast this machine makes fresh pages of memory.
 *
 * Usage: gcc -O2 -o /tmp/first-touch samples/bench/first-touch.c && /tmp/first-touch MIB HUGE
 * Maps MIB MiB (2 MiB aligned), advises it MADV_HUGEPAGE (HUGE=1) or MADV_NOHUGEPAGE (HUGE=0),
 * writes one byte a 4 KiB page (each first write faults a page in, zeroed by the kernel), then
 * writes every byte again (pages already there). The first figure is what a program's fresh
 * arrays, and accsim's device copies, cost to make on this machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: first-touch MIB HUGE(0|1)\n");
        return 2;
    }
    size_t n = (size_t)atoi(argv[1]) << 20, huge = 2u << 20;
    int advise = atoi(argv[2]);
    char *p = mmap(NULL, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    char *q = (char *)(((size_t)p + huge - 1) & ~(huge - 1));
    madvise(q, n, advise ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    double t0 = now();
    for (size_t i = 0; i < n; i += 4096)
        q[i] = 1;
    double t1 = now();
    memset(q, 2, n);
    double t2 = now();
    printf("%s pages, %zu MiB: first touch %.1f ms (%.2f GB/s), rewrite %.1f ms\n", advise ? "huge" : "4 KiB", n >> 20,
           (t1 - t0) * 1e3, n / (t1 - t0) / 1e9, (t2 - t1) * 1e3);
    return 0;
}
