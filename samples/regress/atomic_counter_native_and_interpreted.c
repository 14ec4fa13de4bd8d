// Issue 15 (atomics in both engines): one counter updated at once by native code and by the
// interpreter. The kernel runs as native code; the `routine seq` it calls keeps its `atomic`
// statements in the interpreter (a routine may run inside another atomic's expression, where
// only the interpreter reports `nested-atomic`). Both must use the same mechanism for the same
// `x` (§2.12: the update of `x` is atomic against every other atomic update of `x`), so no
// update is lost whichever engine made it; gcc's totals.
#include <stdio.h>

#pragma acc routine seq
static void tally(long *total, double *mass, int *odd, int v)
{
#pragma acc atomic update
    *total += v;
#pragma acc atomic update
    *mass += 0.25;
    if (v % 2) {
        int before;
#pragma acc atomic capture
        before = (*odd)++;
        (void)before;
    }
}

int main(void)
{
    long total = 0;
    double mass = 0.0;
    int odd = 0, direct = 0;
    const int n = 40000;
#pragma acc parallel loop num_gangs(16) copy(total, mass, odd, direct)
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) {
            tally(&total, &mass, &odd, i);
        } else {
#pragma acc atomic update
            total += i;
#pragma acc atomic update
            mass = mass + 0.25;
            if (i % 2) {
#pragma acc atomic update
                odd++;
            }
        }
#pragma acc atomic
        direct += 1;
    }
    printf("total=%ld mass=%.2f odd=%d direct=%d\n", total, mass, odd, direct);
    return 0;
}
