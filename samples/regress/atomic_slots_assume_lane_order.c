// Issue 12 (session 7, item 3): a bug that only another lane order shows. One gang's vector
// lanes hand out output slots with an atomic counter (race-free: `check` finds nothing), and
// the host prints the first slots as if lane j had taken slot j. The lanes of a worker are
// unordered (§1.2: "the vector lanes ... execute ... with no synchronization"), so the slots the
// atomic capture hands out (§2.12) follow whichever lane runs first. `accsim run` runs lane 0
// first and prints 0 1 2 3; `accsim explore` runs the lanes in seeded orders
// (`run --thread-order N` reproduces one) and shows the other outcomes
// (simulator/tests/explore.rs). The fix: store each result at its own index `j`.
#include <stdio.h>

#define N 32

int main(void)
{
    int order[N], next = 0;
#pragma acc parallel num_gangs(1) vector_length(N) copy(next) copyout(order[0:N])
    {
#pragma acc loop vector
        for (int j = 0; j < N; j++) {
            int slot;
#pragma acc atomic capture
            slot = next++;
            order[slot] = j;
        }
    }
    printf("%d slots; first: %d %d %d %d\n", next, order[0], order[1], order[2], order[3]);
    return 0;
}
