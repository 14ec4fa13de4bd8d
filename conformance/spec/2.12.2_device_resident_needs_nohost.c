// expect-exit: 2
// expect-stderr: error
// §2.12.2: "If the data appears in a device_resident clause, the routine directive for the
// procedure must include the nohost clause."
#include <stdio.h>
int state[4];
#pragma acc declare device_resident(state)
#pragma acc routine seq
static int peek(int k) { return state[k]; } /* expect: compile-error */
int main(void) {
    int v[4];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 4; i++) v[i] = peek(i);
    printf("%d\n", v[0]);
    return 0;
}
