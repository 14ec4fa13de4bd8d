// Issue 12 (variable-length arrays): a 2-D local variable-length array `double u[n][m]` used
// in compute regions three ways -- implicitly (§2.6.1: an array not in a data clause is
// present_or_copy), named whole (`copyin(u)`), and as a subarray `unew[1:n-2][0:m]`
// (§2.6.5) -- with the row index `u[i][j]` inside the kernels, whose row size `m` is known only
// at run time. Every row must land on its own row, not on row 0.
#include <stdio.h>

static void run(int n, int m) {
    double u[n][m], unew[n][m];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) unew[i][j] = 0.0;
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) u[i][j] = (i == 0) ? 100.0 : (double)(i * m + j);
#pragma acc parallel loop copyin(u) copy(unew[1:n-2][0:m])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double sum = 0.0;
#pragma acc kernels copyin(unew[0:n][0:m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) sum += unew[i][j];
    printf("n=%d m=%d: u[0][1]=%.1f u[%d][%d]=%.1f unew[1][1]=%.2f unew[%d][%d]=%.2f sum=%.2f\n", n, m, u[0][1], n - 1, m - 1, u[n - 1][m - 1], unew[1][1], n - 2, m - 2, unew[n - 2][m - 2], sum);
}

int main(void) {
    run(6, 5);
    run(9, 12);
    return 0;
}
