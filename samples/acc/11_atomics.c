/* 11_atomics.c — atomic read, write, update and capture.
 *
 * Teaches: when many threads update one location, `#pragma acc atomic` makes each access
 * indivisible (OpenACC 2.0 atomic construct; this spec draft predates its text, the forms follow
 * the final 2.0 document and Cray's description in seeds/003, "ATOMIC"):
 *   update  (also the default): x++, x--, ++x, --x, x op= e, x = x op e, x = e op x;
 *   read:    v = x;          write: x = e;
 *   capture: v = x++, v = x op= e ..., or a block { v = x; x op= e; } / { x op= e; v = x; }.
 * A scalar updated atomically must be shared: in a parallel construct a scalar without a clause
 * is firstprivate (§2.5.1), one copy per gang, so the counters here are in copy() clauses.
 * Atomics make the result independent of the order of the updates only where the operation is
 * exact: integer counters, and here floating sums of small multiples of 1/2. Captured values
 * (which slot each iteration got) do depend on the order, so the program keeps them on the
 * device and brings back only an order-free fact about them: how many times each slot number
 * was handed out (with `accsim validate`, which compares every transfer between the simulator
 * and the GPU byte for byte, a copy-out of the slots themselves would differ, legitimately).
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 4000
#define BINS 16

int main(void) {
    int *v = malloc(N * sizeof *v);
    int *taken = calloc(N, sizeof *taken);
    if (!v || !taken) return 1;
    for (int i = 0; i < N; i++) v[i] = (i * 2654435761u) >> 20;

    int hist[BINS] = {0};
    int count = 0, evens = 0, odds_down = 0;
    unsigned mask = 0, parity = 0;
    double half_sum = 0.0;
    long long prod = 1;

    /* update: every form of the update statement */
#pragma acc parallel loop copyin(v[0:N]) copy(hist, evens, odds_down, mask, parity, half_sum, prod)
    for (int i = 0; i < N; i++) {
        int b = v[i] % BINS;
#pragma acc atomic update
        hist[b]++;
        if (v[i] % 2 == 0) {
#pragma acc atomic
            ++evens;
        } else {
#pragma acc atomic update
            odds_down--;
        }
#pragma acc atomic update
        mask |= 1u << (v[i] % 32);
#pragma acc atomic update
        parity = parity ^ (unsigned)(v[i] & 1);
#pragma acc atomic update
        half_sum += 0.5 * (v[i] % 4);
        if (i % 1000 == 0) {
#pragma acc atomic update
            prod = prod * 3;
        }
    }

    /* capture: each iteration takes a unique slot number, and counts it in taken[] */
#pragma acc parallel loop copy(count, taken[0:N])
    for (int i = 0; i < N; i++) {
        int my;
#pragma acc atomic capture
        my = count++;
        if (my >= 0 && my < N) {
#pragma acc atomic update
            taken[my]++;
        }
    }

    /* capture, block form: old value saved, then updated */
    int ticket = 100, last_seen = 0;
#pragma acc parallel num_gangs(1) copy(ticket, last_seen)
    {
        int old;
#pragma acc atomic capture
        {
            old = ticket;
            ticket += 5;
        }
        /* write: one thread stores the captured value */
#pragma acc atomic write
        last_seen = old;
    }

    /* read: every iteration reads a value written in an earlier region */
    int reads_ok = 0;
#pragma acc parallel loop copyin(last_seen) reduction(+:reads_ok)
    for (int i = 0; i < 100; i++) {
        int r;
#pragma acc atomic read
        r = last_seen;
        reads_ok += r == 100;
    }

    int hist_total = 0, distinct = 1;
    for (int b = 0; b < BINS; b++) hist_total += hist[b];
    for (int i = 0; i < N; i++)
        if (taken[i] != 1) distinct = 0;
    printf("hist:");
    for (int b = 0; b < BINS; b++) printf(" %d", hist[b]);
    printf("\nhist total = %d, evens = %d, odds_down = %d\n", hist_total, evens, odds_down);
    printf("mask = %#010x, parity = %u, half_sum = %.6f, prod = %lld\n", mask, parity, half_sum, prod);
    printf("capture: count = %d, every slot taken once = %s\n", count, distinct ? "yes" : "no");
    printf("capture block: ticket = %d, write stored %d, atomic reads of 100 = %d\n", ticket, last_seen, reads_ok);
    free(v);
    free(taken);
    return 0;
}
