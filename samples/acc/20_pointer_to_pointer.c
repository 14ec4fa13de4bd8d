/* 20_pointer_to_pointer.c — a 2-D array built from row pointers, `copy(a[0:n][0:m])`.
 *
 * Teaches: C programs often allocate a matrix as an array of row pointers (`double **a`, each row
 * its own malloc). A two-dimensional subarray on such a pointer, `a[0:n][0:m]` (§2.6.5: subarray
 * notation, one range per dimension), moves the n rows of m elements AND builds on the device an
 * array of n device row pointers, so that `a[i][j]` works in the compute region. The rows need not
 * be contiguous with each other; each row is. (The OpenACC 2.0 text requires data in a clause to
 * be contiguous; implementations — PGI, Cray, and accsim as DESIGN.md says — accept this form as
 * an extension that later OpenACC versions describe.) Subarrays of such arrays work too:
 * `b[2:4][0:m]` maps only rows 2..5.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

static double **alloc_matrix(int n, int m) {
    double **a = malloc(n * sizeof *a);
    if (!a) return NULL;
    for (int i = 0; i < n; i++) {
        a[i] = malloc(m * sizeof **a);
        if (!a[i]) return NULL;
    }
    return a;
}

static void free_matrix(double **a, int n) {
    for (int i = 0; i < n; i++) free(a[i]);
    free(a);
}

int main(void) {
    int n = 40, m = 25;
    double **a = alloc_matrix(n, m);
    double **b = alloc_matrix(n, m);
    if (!a || !b) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            a[i][j] = (double)((i * m + j) % 10);
            b[i][j] = 0.0;
        }

#pragma acc parallel loop collapse(2) copy(a[0:n][0:m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i][j] = a[i][j] * 2.0 + (i == j);

    /* Only rows 2..5 of b travel; the loop touches only those. */
#pragma acc parallel loop copyin(a[2:4][0:m]) copyout(b[2:4][0:m])
    for (int i = 2; i < 6; i++)
        for (int j = 0; j < m; j++)
            b[i][j] = a[i][j] + 100.0;

    double sa = 0.0, sb = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            sa += a[i][j];
            sb += b[i][j];
        }
    printf("a[3][3] = %.6f, a[39][24] = %.6f, sum(a) = %.6f\n", a[3][3], a[n - 1][m - 1], sa);
    printf("b[2][0] = %.6f, b[6][0] = %.6f, sum(b) = %.6f\n", b[2][0], b[6][0], sb);
    free_matrix(a, n);
    free_matrix(b, n);
    return 0;
}
