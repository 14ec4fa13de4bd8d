// §2.12.1.2: "a procedure with a routine worker directive may be called from within a loop that
// has the gang clause, but not from within a loop that has the worker clause." Each gang's call
// shares the routine's worker loop among that gang's workers.
#include <stdio.h>
#define ROWS 8
#define COLS 40
#pragma acc routine worker
static void fill_row(int *row, int n, int base) {
#pragma acc loop worker
    for (int j = 0; j < n; j++) row[j] = base + j;
}
int main(void) {
    static int m[ROWS][COLS];
#pragma acc parallel loop gang num_workers(4) copyout(m)
    for (int i = 0; i < ROWS; i++) fill_row(m[i], COLS, 100 * i);
    long s = 0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) s += m[i][j];
    printf("m[3][5] = %d, sum = %ld\n", m[3][5], s);
    return 0;
}
