// §2.5.10: the copy is initialised with the host value "when the parallel construct is
// encountered" -- each encounter in a loop sees the current host value.
#include <stdio.h>
int main(void) {
    int r[3];
    for (int step = 0; step < 3; step++) {
        int seed = 10 * (step + 1);
        int v = 0;
#pragma acc parallel num_gangs(1) firstprivate(seed) copyout(v)
        {
            v = seed + 1;
        }
        r[step] = v;
    }
    printf("%d %d %d\n", r[0], r[1], r[2]);
    return 0;
}
