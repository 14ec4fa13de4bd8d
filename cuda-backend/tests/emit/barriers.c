/* barriers.c — which barriers the CUDA back-end keeps around partitioned loops (§1.2, §1.3;
 * cuda-backend/src/barrier.rs). Each region below is one case of tests/emit.rs
 * `barrier_cases`; the simulator's output is the reference.
 */
#include <stdio.h>

#define G 4
#define N 64

static double a[G * N], b[G], c[G * N], t[G * N], out[G];

int main(void) {
    for (int k = 0; k < G * N; k++) a[k] = (k % 7) * 0.5;

    /* 1. A vector loop that is all a gang iteration does: no barrier. */
#pragma acc parallel loop gang num_gangs(2) vector_length(32) copyin(a) copyout(c)
    for (int i = 0; i < G; i++) {
#pragma acc loop vector
        for (int j = 0; j < N; j++) c[i * N + j] = 2.0 * a[i * N + j];
    }

    /* 2. Single code stores b[i], the vector loop reads it: the barrier before the loop. */
#pragma acc parallel loop gang num_gangs(2) vector_length(32) copyin(a) copyout(b, c)
    for (int i = 0; i < G; i++) {
        b[i] = a[i * N] + 1.0;
#pragma acc loop vector
        for (int j = 0; j < N; j++) c[i * N + j] = b[i] * j;
    }

    /* 3. The vector loop fills a gang-private array that single code then reads: the barrier
     *    after the loop, and the one before it (the next row overwrites what was read). */
#pragma acc parallel loop gang num_gangs(2) vector_length(32) copyin(a) copyout(out)
    for (int i = 0; i < G; i++) {
        double row[N];
#pragma acc loop vector
        for (int j = 0; j < N; j++) row[j] = a[i * N + j] * 3.0;
        out[i] = row[0] + row[N - 1];
    }

    /* 4. Two vector loops of one gang iteration, the second reading what other lanes of the
     *    first wrote: a barrier between them. */
#pragma acc parallel loop gang num_gangs(2) vector_length(32) copyin(a) copyout(c) create(t)
    for (int i = 0; i < G; i++) {
#pragma acc loop vector
        for (int j = 0; j < N; j++) t[i * N + j] = a[i * N + j] + j;
#pragma acc loop vector
        for (int j = 0; j < N; j++) c[i * N + j] = t[i * N + N - 1 - j];
    }

    double s = 0.0;
    for (int k = 0; k < G * N; k++) s += c[k];
    printf("c: %g  b: %g %g  out: %g %g %g %g\n", s, b[0], b[3], out[0], out[1], out[2], out[3]);
    return 0;
}
