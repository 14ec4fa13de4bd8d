// Issue 15 (atomics in both engines): every word form of OpenACC 2.0 §2.12 (`atomic update`,
// `capture`, `read`, `write`) on int, unsigned, long, float and double targets, updated by
// many gangs at once. Integer updates commute, and the float and double values added are
// exact (small multiples of 1/4), so the result is the same in any order: gcc's.
#include <stdio.h>

#define N 20000
#define BINS 64

int main(void)
{
    int count = 0, down = N, mask_and = -1, mask_or = 0, flips = 0;
    unsigned ucount = 0, uxor = 0;
    long lsum = 0, lrev = 0;
    float fsum = 0.0f;
    double dsum = 0.0, dscaled = 1.0;
    long hist[BINS];
    int slot_seen[N];
    int next_slot = 0, last_written = -1;
    long snapshot = 0;
    for (int b = 0; b < BINS; b++)
        hist[b] = 0;
    for (int i = 0; i < N; i++)
        slot_seen[i] = 0;
#pragma acc parallel loop num_gangs(16) copy(count, down, mask_and, mask_or, flips, ucount, uxor, lsum, lrev, fsum, dsum, dscaled, hist, slot_seen, next_slot, snapshot) copyout(last_written)
    for (int i = 0; i < N; i++) {
#pragma acc atomic update
        count++;
#pragma acc atomic
        --down;
#pragma acc atomic update
        mask_and &= ~(1 << (i % 7 == 3 ? 5 : 31));
#pragma acc atomic update
        mask_or |= 1 << (i % 13);
#pragma acc atomic update
        flips ^= 1;
#pragma acc atomic update
        ucount += 3u;
#pragma acc atomic update
        uxor = uxor ^ (unsigned)(i & 0xff);
#pragma acc atomic update
        lsum = lsum + (long)i * i;
#pragma acc atomic update
        lrev = (long)i - lrev; /* expr binop x: not commutative, see below */
#pragma acc atomic update
        fsum += 0.25f;
#pragma acc atomic update
        dsum = 0.5 + dsum;
        if (i % 1000 == 0) {
#pragma acc atomic update
            dscaled *= 2.0;
        }
#pragma acc atomic update
        hist[(i * 7) % BINS] += 2;
        int slot;
#pragma acc atomic capture
        slot = next_slot++;
        slot_seen[slot] += 1;
        long seen;
#pragma acc atomic read
        seen = lsum;
        if (seen >= 0 && i == N / 2) {
#pragma acc atomic write
            last_written = i;
        }
        long before;
#pragma acc atomic capture
        {
            before = snapshot;
            snapshot += 1;
        }
        (void)before;
    }
    int slots_ok = 1;
    for (int i = 0; i < N; i++)
        slots_ok &= slot_seen[i] == 1;
    long hsum = 0;
    for (int b = 0; b < BINS; b++)
        hsum += hist[b] * (b + 1);
    /* `lrev = i - lrev` in any order is an alternating sum of the i's, whose sign pattern
       depends on the order; only its parity is order-free (each i is added or subtracted). */
    printf("count=%d down=%d and=%d or=%d flips=%d\n", count, down, mask_and, mask_or, flips);
    printf("ucount=%u uxor=%u lsum=%ld lrev_parity=%ld\n", ucount, uxor, lsum, ((lrev % 2) + 2) % 2);
    printf("fsum=%.2f dsum=%.2f dscaled=%g hist=%ld\n", fsum, dsum, dscaled, hsum);
    printf("slots=%s next=%d last_written=%d snapshot=%ld\n", slots_ok ? "each once" : "WRONG", next_slot, last_written, snapshot);
    return 0;
}
