// expect-exit: 2
// expect-stderr: error
// §2.12.1.4: "The seq clause specifies that the procedure does not contain nor does it call
// another procedure that contains a loop with a gang, worker or vector clause."
#include <stdio.h>
#pragma acc routine seq
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
