// Issue 15 (atomics in both engines): `atomic update` of struct members (§2.12: `x` is any
// scalar lvalue). The int and double members take the compare-and-swap of their word; the
// short and char members beside them, which have no word form, keep the run's atomic lock.
// Both kinds of update land in the same 8-byte words from many gangs at once; none may undo
// another's (the lock path writes its bytes with a compare-and-swap of the word too).
#include <stdio.h>
#include <stdlib.h>

struct bin {
    short hits_short;
    unsigned char parity;
    int hits;
    double weight;
    long total;
};

#define N 30000
#define BINS 8

static void count_into(struct bin *b, int n)
{
#pragma acc parallel loop num_gangs(12) present(b[0:BINS])
    for (int i = 0; i < n; i++) {
        struct bin *mine = &b[i % BINS];
#pragma acc atomic update
        mine->hits++;
#pragma acc atomic update
        mine->hits_short++;
#pragma acc atomic update
        mine->parity ^= 1;
#pragma acc atomic update
        b[(i / 3) % BINS].weight += 0.125;
#pragma acc atomic update
        mine->total = mine->total + i;
    }
}

int main(void)
{
    struct bin *bins = calloc(BINS, sizeof *bins);
    struct bin one = {0, 0, 0, 0.0, 0};
    if (!bins)
        return 1;
#pragma acc data copy(bins[0:BINS])
    {
        count_into(bins, N);
        count_into(bins, N / 2);
    }
#pragma acc parallel loop num_gangs(8) copy(one)
    for (int i = 0; i < 1000; i++) {
#pragma acc atomic
        one.hits += 2;
#pragma acc atomic
        one.weight -= 0.5;
    }
    for (int b = 0; b < BINS; b++)
        printf("bin %d: hits=%d short=%d parity=%d weight=%.3f total=%ld\n", b, bins[b].hits, bins[b].hits_short,
               bins[b].parity, bins[b].weight, bins[b].total);
    printf("one: hits=%d weight=%.1f\n", one.hits, one.weight);
    free(bins);
    return 0;
}
