// expect-exit: 2
// expect-stderr: error
// §2.12.1.2: a routine worker may not be called "from within a loop that has the worker clause".
#include <stdio.h>
#pragma acc routine worker
static void fill(int *row, int m) {
#pragma acc loop worker
    for (int j = 0; j < m; j++) row[j] = j;
}
int main(void) {
    static int a[4][16];
#pragma acc parallel loop gang worker copyout(a)
    for (int i = 0; i < 4; i++) fill(a[i], 16); /* expect: compile-error */
    printf("%d\n", a[3][15]);
    return 0;
}
