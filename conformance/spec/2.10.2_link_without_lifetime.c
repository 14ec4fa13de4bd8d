// expect-exit: 3
// expect-stderr: error
// §2.12.2: "If the data appears in a link clause, that data must have an active accelerator data
// lifetime by virtue of appearing in a data clause for a data construct, compute construct or
// enter data directive." No data clause maps `limits` here.
#include <stdio.h>
int limits[2] = {0, 10};
#pragma acc declare link(limits)
#pragma acc routine seq
static int clamp(int v) { return v < limits[0] ? limits[0] : v > limits[1] ? limits[1] : v; } /* expect: not-present */
int main(void) {
    int out[4];
#pragma acc parallel loop copyout(out)
    for (int i = 0; i < 4; i++) out[i] = clamp(i * 5);
    printf("%d\n", out[3]);
    return 0;
}
