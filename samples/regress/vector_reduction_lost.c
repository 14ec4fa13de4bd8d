// Issue 12 (check must not sleep): a reduction declared only on a vector (or worker) loop
// combines the lanes of each gang into that gang's copy of the variable (§2.7.11), and in a
// parallel construct that copy is firstprivate (§2.5.1): the total never reaches the host. No
// finding was given (any loop's reduction clause silenced lost-write). The same reduction with a
// gang-level one too, and a per-row sum declared in the gang loop, are correct.
#include <stdio.h>

#define N 64

int main(void) {
    static float a[N][N], rows[N];
    float total = 0.0f, total2 = 0.0f;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) a[i][j] = (float)((i + j) % 3);

#pragma acc parallel loop gang copyin(a)
    for (int i = 0; i < N; i++) {
#pragma acc loop vector reduction(+:total)
        for (int j = 0; j < N; j++) total += a[i][j]; /* expect: lost-write */
    }

#pragma acc parallel loop gang copyin(a) copyout(rows) reduction(+:total2)
    for (int i = 0; i < N; i++) {
        float row = 0.0f;
#pragma acc loop vector reduction(+:row)
        for (int j = 0; j < N; j++) row += a[i][j];
        rows[i] = row;
        total2 += row;
    }
    printf("total = %.0f, total2 = %.0f, rows[1] = %.0f\n", total, total2, rows[1]);
    return 0;
}
