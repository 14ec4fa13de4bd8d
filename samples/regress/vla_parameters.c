// Issue 12 item 7 with C99 variable-length array parameters, as numerical codes write them:
// `void scale(int n, int m, double A[n][m])` with `#pragma acc data copy(A)` maps the declared
// extent (n rows of m doubles, as nvc does; a portability note says OpenACC 2.0 maps the pointer
// itself), `copy(A[0:n][0:m])` maps n rows of m doubles (the row stride is known only at run
// time), and the kernels index rows of run-time length (the count of the row type is captured
// like any outside variable). Variants: a parameter and a local VLA, parallel and kernels.
#include <stdio.h>

static void scale(int n, int m, double A[n][m], double f)
{
#pragma acc data copy(A)
    {
#pragma acc parallel loop collapse(2)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++)
                A[i][j] *= f;
    }
}

static void shift(int n, int m, double A[n][m])
{
#pragma acc kernels loop independent copy(A[0:n][0:m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i][j] += i;
}

int main(void)
{
    int n = 6, m = 7;
    double A[n][m];
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i][j] = i + j;

    scale(n, m, A, 2.0);
    shift(n, m, A);
#pragma acc parallel loop copy(A[1:2][0:m])
    for (int i = 1; i < 3; i++)
        for (int j = 0; j < m; j++)
            A[i][j] = -A[i][j];

    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            sum += A[i][j];
    printf("A[0][0] = %.0f, A[1][6] = %.0f, A[5][6] = %.0f, sum = %.0f\n", A[0][0], A[1][6], A[5][6], sum);
    return 0;
}
