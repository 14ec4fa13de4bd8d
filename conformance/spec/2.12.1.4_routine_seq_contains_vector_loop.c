// expect-exit: 2
// expect-stderr: error
// §2.12.1.4: "The seq clause specifies that the procedure does not contain nor does it call
// another procedure that contains a loop with a gang, worker or vector clause."
#include <stdio.h>
#pragma acc routine seq
static void zero(int *v, int n) {
#pragma acc loop vector /* expect: compile-error */
    for (int j = 0; j < n; j++) v[j] = 0;
}
int main(void) {
    static int v[4][8];
#pragma acc parallel loop copy(v)
    for (int i = 0; i < 4; i++) zero(v[i], 8);
    printf("%d\n", v[0][0]);
    return 0;
}
