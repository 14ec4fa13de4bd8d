/* A histogram of pseudo-random values, counted with `atomic update`.
 *
 * Benchmark suite of issue 15: the host fills an array with a linear congruential generator, a
 * `parallel loop` maps each value to one of BINS bins with integer arithmetic and counts it with
 * `#pragma acc atomic update`, repeated REPS times on shifted bins. -DN=... sets the number of
 * values, -DREPS=... the passes.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 4000000
#endif
#ifndef REPS
#define REPS 20
#endif
#define BINS 256

int main(void)
{
    const int n = N;
    unsigned *values = malloc(sizeof(unsigned) * n);
    long hist[BINS];
    if (!values) {
        fprintf(stderr, "histogram: out of memory\n");
        return 1;
    }
    unsigned state = 12345u;
    for (int i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        values[i] = state >> 8;
    }
    for (int b = 0; b < BINS; b++)
        hist[b] = 0;
#pragma acc data copyin(values[0:n]) copy(hist)
    for (int r = 0; r < REPS; r++) {
#pragma acc parallel loop
        for (int i = 0; i < n; i++) {
            unsigned v = values[i] ^ (unsigned)(r * 2654435761u);
            int bin = (int)((v % 1000003u) * BINS / 1000003u);
#pragma acc atomic update
            hist[bin]++;
        }
    }
    long total = 0, weighted = 0, most = 0;
    for (int b = 0; b < BINS; b++) {
        total += hist[b];
        weighted += hist[b] * (b + 1);
        if (hist[b] > most)
            most = hist[b];
    }
    printf("histogram n=%d reps=%d total=%ld weighted=%ld largest=%ld\n", n, REPS, total, weighted,
           most);
    free(values);
    return 0;
}
