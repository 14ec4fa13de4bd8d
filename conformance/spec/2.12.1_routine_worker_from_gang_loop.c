// §2.12.1.2: "a procedure with a routine worker directive may be called from within a loop that
// has the gang clause, but not from within a loop that has the worker clause."
#include <stdio.h>
#pragma acc routine worker
static void fill(int *row, int m, int base) {
#pragma acc loop worker
    for (int j = 0; j < m; j++) row[j] = base + j;
}
int main(void) {
    static int a[6][30];
#pragma acc parallel loop gang num_workers(4) copyout(a)
    for (int i = 0; i < 6; i++) fill(a[i], 30, 100 * i);
    printf("%d %d %d\n", a[0][0], a[2][5], a[5][29]);
    return 0;
}
