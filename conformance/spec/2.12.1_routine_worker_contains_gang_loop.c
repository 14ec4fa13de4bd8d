// expect-exit: 2
// expect-stderr: error
// §2.12.1.2: a worker routine "does not contain nor does it call another procedure that contains
// a loop with the gang clause."
#include <stdio.h>
#pragma acc routine worker
static void fill(int *v, int n) {
#pragma acc loop gang /* expect: compile-error */
    for (int i = 0; i < n; i++) v[i] = i;
}
int main(void) {
    int v[16];
#pragma acc parallel num_gangs(2) copyout(v)
    {
        fill(v, 16);
    }
    printf("%d\n", v[15]);
    return 0;
}
