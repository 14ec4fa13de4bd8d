// Issue 12 item 7 (implicit pointers): a matrix in one heap block, indexed `a[i*n+j]`, with no
// data clause. accsim, like nvc, copies in what the nest reads and copies `c` in and out over
// the rows the nest writes (the hull of the subscripts, evaluated with the launch's `n`).
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 64;
    double *a = malloc(n * n * sizeof(double));
    double *b = malloc(n * n * sizeof(double));
    double *c = malloc(n * n * sizeof(double));
    for (int i = 0; i < n * n; i++) {
        a[i] = (i % 5) * 0.5;
        b[i] = (i % 3) - 1.0;
        c[i] = -1.0;
    }
#pragma acc parallel loop collapse(2)
    for (int i = 1; i < n - 1; i++)
        for (int j = 0; j < n; j++)
            c[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] + b[i * n + j];
    double sum = 0.0;
    for (int i = 0; i < n * n; i++)
        sum += c[i];
    printf("c[0] = %.1f, c[n+1] = %.1f, sum = %.1f\n", c[0], c[n + 1], sum);
    free(a);
    free(b);
    free(c);
    return 0;
}
