// Issue 14, untrusted programs: a routine called in an atomic statement's expression that runs
// an atomic itself (§2.12) deadlocked on the run's atomic lock, using no CPU, so no limit fired.
// The inner atomic is now a runtime error naming both statements.
// expect-exit: 3
// expect-stderr: error[nested-atomic]
// expect-stderr: atomic_routine_in_atomic.c:12:13
#include <stdio.h>

#pragma acc routine seq
int count_visit(int *visits)
{
#pragma acc atomic update /* expect: nested-atomic */
    *visits += 1;
    return 1;
}

int main(void) {
    int hits = 0, visits = 0;
#pragma acc parallel loop num_gangs(4) copy(hits, visits)
    for (int i = 0; i < 100; i++) {
#pragma acc atomic update
        hits += count_visit(&visits);
    }
    printf("%d %d\n", hits, visits);
    return 0;
}
