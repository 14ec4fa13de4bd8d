// accsim-flags: --threads 4
// Issue 15, item 2 (16 threads `lock xadd`-ing a histogram's shared bins): integer `atomic
// update` counters (`x++`, `x--`, `x += c`, `x -= c`) that nothing else in the construct reads
// or writes are counted by each device thread in a table of its own and added into the array
// after the kernel. §2.12 orders no updates of one location, and integer `+` wraps the same in
// every order, so the bins must be gcc's on any number of threads: `long`, `int`, `short` and
// `unsigned char` bins (the last wrap, C11 6.2.5p9), bins in a struct member, a heap array, and
// a kernel whose weights are not constants (updated in place).
#include <stdio.h>
#include <stdlib.h>

#define N 60000
#define BINS 64

struct tally {
    int pad;
    int count[BINS];
};

int main(void)
{
    static unsigned values[N];
    long hits[BINS] = {0};
    int triple[BINS];
    short down[BINS];
    unsigned char small[BINS];
    struct tally t = {0};
    long *weighted = calloc(BINS, sizeof *weighted);
    if (weighted == NULL)
        return 1;
    unsigned state = 2024u;
    for (int i = 0; i < N; i++) {
        state = state * 1664525u + 1013904223u;
        values[i] = state >> 9;
    }
    for (int b = 0; b < BINS; b++) {
        triple[b] = 1000 - b;
        down[b] = (short)(b * 3);
        small[b] = 250;
    }
#pragma acc data copyin(values) copy(hits, triple, down, small, t, weighted[0:BINS])
    {
#pragma acc parallel loop
        for (int i = 0; i < N; i++) {
            int b = (int)(values[i] % BINS);
#pragma acc atomic update
            hits[b]++;
#pragma acc atomic update
            triple[(b * 7) % BINS] += 3;
#pragma acc atomic update
            down[b]--;
#pragma acc atomic update
            small[(b + 5) % BINS] += 1;
#pragma acc atomic update
            t.count[b] -= 2;
        }
#pragma acc parallel loop
        for (int i = 0; i < N; i++) {
            int b = (int)(values[i] % BINS);
#pragma acc atomic update
            weighted[b] += values[i] & 7u;
        }
    }
    long sum = 0, mix = 0;
    for (int b = 0; b < BINS; b++) {
        sum += hits[b] + triple[b] + down[b] + small[b] + t.count[b] + weighted[b];
        mix += (b + 1) * (hits[b] - 3 * triple[b] + 5 * down[b] - 7 * small[b] + 11 * t.count[b] - weighted[b]);
    }
    printf("hits[0]=%ld triple[0]=%d down[1]=%d small[2]=%d t.count[3]=%d weighted[4]=%ld t.pad=%d\n", hits[0], triple[0], down[1], small[2], t.count[3], weighted[4], t.pad);
    printf("sum=%ld mix=%ld\n", sum, mix);
    free(weighted);
    return 0;
}
