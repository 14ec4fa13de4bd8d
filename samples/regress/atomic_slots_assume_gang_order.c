// Issue 12 (session 6, item 6): a bug that only another gang order shows. The kernel compacts
// the indices of the multiples of 7 into `hits` through an atomic counter (race-free: `check`
// finds nothing), and the host then prints the first hits as if they were in ascending order.
// Gangs are unordered (§1.2: "the gangs ... execute ... with no synchronization between
// them"), so the slots the atomic capture hands out (§2.12) follow whichever gang runs first.
// `accsim run` runs gang 0 first and prints the ascending list; `accsim explore` runs the gangs
// in seeded orders and shows the other outcomes (simulator/tests/explore.rs). The fix is to sort
// on the host, or to store a flag per index and compact on the host.
// With more than one device thread the gangs run at the same time and the first slots go to
// whichever gang reaches the atomic first (issue 15: with atomics as native code, gang 2 on the
// second thread often does), so the expected output is the one-thread schedule, gang 0 first.
// accsim-flags: --threads 1
#include <stdio.h>

#define N 400

int main(void)
{
    int hits[N], count = 0;
#pragma acc parallel loop gang num_gangs(4) copy(count) copyout(hits[0:N])
    for (int i = 0; i < N; i++) {
        if (i % 7 == 0) {
            int slot;
#pragma acc atomic capture
            slot = count++;
            hits[slot] = i;
        }
    }
    printf("%d hits; first: %d %d %d\n", count, hits[0], hits[1], hits[2]);
    return 0;
}
// gpu: skip (its output depends on the order the gangs run in, by design)
