// expect-exit: 2
// expect-stderr: error
// §2.12.1.3: a routine vector may not be called "from within a loop that has the vector clause".
#include <stdio.h>
#pragma acc routine vector
static void fill(int *row, int m) {
#pragma acc loop vector
    for (int j = 0; j < m; j++) row[j] = j;
}
int main(void) {
    static int a[4][16];
#pragma acc parallel loop gang vector copyout(a)
    for (int i = 0; i < 4; i++) fill(a[i], 16); /* expect: compile-error */
    printf("%d\n", a[3][15]);
    return 0;
}
