// expect-exit: 2
// expect-stderr: error
// §2.12.1.3: "The vector clause specifies that the procedure ... does not contain nor does it call
// another procedure that contains a loop with either a gang or worker clause."
#include <stdio.h>
#pragma acc routine vector
static void row_sum(const int *v, int n, int *out) {
    int s = 0;
#pragma acc loop worker reduction(+:s) /* expect: compile-error */
    for (int j = 0; j < n; j++) s += v[j];
    *out = s;
}
int main(void) {
    static int v[4][32], out[4];
#pragma acc parallel loop gang copyin(v) copyout(out)
    for (int i = 0; i < 4; i++) row_sum(v[i], 32, &out[i]);
    printf("%d\n", out[0]);
    return 0;
}
