// accsim-flags: --threads 1
// gpu: skip (firsts and lasts count captures that saw an empty bin: they depend on the order of the updates, one device thread here; a GPU interleaves them)
// Issue 15 (histogram under 4x gcc -O2): with one device thread, native code updates an
// `atomic` target with a plain read-modify-write (no other thread can touch it; §2.12 asks only
// that no other access of `x` fall between the read and the write), and an integer `x += e` on
// several threads with `lock xadd`. A histogram with bins of each word type, counted with every
// update form of §2.12 and with captures of the old and the new value, must give gcc's totals
// (unsigned bins wrap as C says, C11 6.2.5p9).
#include <limits.h>
#include <stdio.h>

#define N 20000
#define BINS 16

int main(void)
{
    static unsigned values[N];
    int count[BINS] = {0};
    unsigned wrap[BINS];
    long weight[BINS] = {0};
    unsigned long mixed[BINS] = {0};
    long down[BINS];
    int firsts = 0, lasts = 0;
    unsigned state = 7u;
    for (int i = 0; i < N; i++) {
        state = state * 1664525u + 1013904223u;
        values[i] = state >> 9;
    }
    for (int b = 0; b < BINS; b++) {
        wrap[b] = UINT_MAX - 100u;
        down[b] = 1000000;
    }
#pragma acc parallel loop copyin(values) copy(count, wrap, weight, mixed, down, firsts, lasts)
    for (int i = 0; i < N; i++) {
        int bin = (int)(values[i] % BINS);
        long w = (long)(values[i] % 7u) - 3;
#pragma acc atomic update
        count[bin]++;
#pragma acc atomic
        wrap[bin] += 3u;
#pragma acc atomic update
        weight[bin] = weight[bin] + w;
#pragma acc atomic update
        mixed[bin] = (unsigned long)values[i] * 977ul ^ mixed[bin];
#pragma acc atomic update
        down[bin] -= w * 2;
        int seen, now;
#pragma acc atomic capture
        seen = count[(bin + 1) % BINS]++;
#pragma acc atomic capture
        {
            count[(bin + 2) % BINS] -= 1;
            now = count[(bin + 2) % BINS];
        }
        if (seen == 0) {
#pragma acc atomic update
            firsts++;
        }
        if (now < 0) {
#pragma acc atomic update
            lasts += 1;
        }
    }
    long total = 0, sum_w = 0, sum_d = 0;
    unsigned sum_wrap = 0;
    unsigned long x = 0;
    for (int b = 0; b < BINS; b++) {
        total += count[b];
        sum_wrap += wrap[b];
        sum_w += weight[b];
        x ^= mixed[b];
        sum_d += down[b];
        printf("bin %2d: count %d wrap %u weight %ld mixed %lu down %ld\n", b, count[b], wrap[b], weight[b], mixed[b], down[b]);
    }
    printf("total %ld wrap %u weight %ld mixed %lu down %ld firsts %d lasts %d\n", total, sum_wrap, sum_w, x, sum_d, firsts, lasts);
    return 0;
}
