// Issue 15 (native engine, second stage): host functions holding OpenACC directives run as
// native code, calling into the runtime for each directive: a data region around a time loop
// of launches (§2.6.5), a scalar reduction returned into a register local (§2.5.11), `update
// host` inside the region (§2.14.4), unstructured `enter`/`exit data` (§2.6.6), pointer-to-row
// and VLA-row indexing in the kernels, and a loop of launches whose body is one statement.
#include <stdio.h>
#include <stdlib.h>

#define N 64

static double relax(int n, double (*a)[N], double (*b)[N], int steps) {
    double err = 0.0;
#pragma acc data copy(a[0:n][0:N]) create(b[0:n][0:N])
    {
        for (int t = 0; t < steps; t++) {
            err = 0.0;
#pragma acc parallel loop reduction(max:err)
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < N - 1; j++) {
                    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
                    double d = b[i][j] - a[i][j];
                    err = d > err ? d : (-d > err ? -d : err);
                }
#pragma acc parallel loop
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < N - 1; j++)
                    a[i][j] = b[i][j];
        }
#pragma acc update host(a[0:1][0:N])
        printf("edge %.1f\n", a[0][5]);
    }
    return err;
}

static void scale_rows(int n, int m, double v[n][m], double by) {
#pragma acc enter data copyin(v[0:n][0:m])
    for (int r = 0; r < 3; r++)
#pragma acc parallel loop
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++)
                v[i][j] *= by;
#pragma acc exit data copyout(v[0:n][0:m])
}

int main(void) {
    double (*a)[N] = calloc(N, sizeof *a);
    double (*b)[N] = calloc(N, sizeof *b);
    for (int j = 0; j < N; j++)
        a[0][j] = 100.0;
    double err = relax(N, a, b, 30);
    printf("err %.6f a[1][7] %.6f\n", err, a[1][7]);
    int rows = 5, cols = 7;
    double (*v)[cols] = malloc(rows * sizeof *v);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            v[i][j] = i + 0.5 * j;
    scale_rows(rows, cols, v, 2.0);
    printf("v %.2f %.2f\n", v[0][1], v[4][6]);
    free(v);
    free(a);
    free(b);
    return 0;
}
