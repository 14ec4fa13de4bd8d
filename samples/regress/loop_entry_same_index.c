// Issue 15 (native engine, compile share): at a counted loop's entry the exact value of an index
// written the same way at several places (`c[i * n + j] = c[i * n + j] * b + a[i * n + j]`) is
// computed and tested once (jit/src/loops.rs, `Translator::located`): a node whose code does not
// depend on where it is written — a conversion, sum, difference or product, a register local, a
// constant, a pointer step over elements of a constant size — is shared; a division (it faults
// at its place), a read of a local whose address is taken and a step over elements of a run-time
// size are not. Loops here: the same index at three places in a nest, through a local whose
// address is taken, through a variable-length array's rows, under a division by a non-zero
// value, and in a `parallel loop`. Every result must be gcc's.
#include <stdio.h>

#define N 24

static double a[N * N], c[N * N];

static void reset(void)
{
    for (int i = 0; i < N * N; i++) {
        a[i] = (double)((i * 5 + 1) % 17) / 4.0;
        c[i] = (double)((i * 3 + 2) % 11) / 2.0;
    }
}

static double sum(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * (double)((i % 5) + 1);
    return s;
}

/* The same index at three places. */
static void scale_add(int n, double b)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            c[i * n + j] = c[i * n + j] * b + a[i * n + j];
}

/* The row length in a local whose address is taken. */
static void scale_add_memory(double b)
{
    int n = N - 3;
    int *pn = &n;
    *pn = *pn + 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            c[i * n + j] = c[i * n + j] - b * a[i * n + j] + a[i * n + j];
}

/* Rows of a variable-length array: the step reads the row length. */
static void vla_rows(int n)
{
    double m[n][n];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            m[i][j] = a[i * n + j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            m[i][j] = m[i][j] * 2.0 + m[i][j];
    for (int i = 0; i < n; i++)
        c[i] = m[i][i] + m[i][n - 1 - i];
}

/* A division in the index, at two places. */
static void halves(int n, int d)
{
    for (int j = 0; j < n; j++)
        c[j / d + 1] = c[j / d + 1] + a[j / d];
}

int main(void)
{
    reset();
    scale_add(N, 0.5);
    printf("scale_add %.6f\n", sum(c, N * N));
    scale_add(N - 5, 1.5);
    printf("scale_add short %.6f\n", sum(c, N * N));
    reset();
    scale_add_memory(0.25);
    printf("memory %.6f\n", sum(c, N * N));
    reset();
    vla_rows(N - 4);
    printf("vla %.6f\n", sum(c, N * N));
    reset();
    halves(N * N - 2, 2);
    halves(N * 4, 3);
    printf("halves %.6f\n", sum(c, N * N));
    reset();
#pragma acc parallel loop copyin(a) copy(c)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            c[i * N + j] = c[i * N + j] * 0.75 + a[i * N + j] - a[i * N + j] * 0.5;
    printf("parallel %.6f\n", sum(c, N * N));
    return 0;
}
