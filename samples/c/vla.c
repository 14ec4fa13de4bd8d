// Exercises: variable-length arrays: stack VLAs, sizeof of a VLA, function
// parameters `int n, double a[n][n]`, and heap matrices through pointers to
// VLA rows `double (*a)[n] = malloc(...)`.
#include <stdio.h>
#include <stdlib.h>

static void fill(int n, double a[n][n]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) a[i][j] = (i + 1) * 10 + j;
}

static double trace(int n, double a[n][n]) {
    double t = 0;
    for (int i = 0; i < n; i++) t += a[i][i];
    return t;
}

static void matvec(int rows, int cols, const double m[rows][cols], const double *x, double *y) {
    for (int i = 0; i < rows; i++) {
        y[i] = 0;
        for (int j = 0; j < cols; j++) y[i] += m[i][j] * x[j];
    }
}

static size_t vla_size(int n) {
    char buf[n * 3 + 1];
    return sizeof buf;
}

int main(void) {
    for (int n = 1; n <= 5; n += 2) {
        int v[n];
        for (int i = 0; i < n; i++) v[i] = i * n;
        int s = 0;
        for (int i = 0; i < n; i++) s += v[i];
        printf("n=%d sizeof v=%zu sum=%d vla_size=%zu\n", n, sizeof v, s, vla_size(n));
    }
    int n = 4;
    double sq[n][n];
    fill(n, sq);
    printf("trace=%g sizeof sq=%zu sizeof sq[0]=%zu\n", trace(n, sq), sizeof sq, sizeof sq[0]);
    int rows = 3, cols = 5;
    double (*h)[cols] = malloc(rows * sizeof *h);
    if (!h) return 1;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) h[i][j] = i - j * 0.5;
    double x[5] = {1, 2, 3, 4, 5}, y[3];
    matvec(rows, cols, (const double (*)[cols])h, x, y);
    for (int i = 0; i < rows; i++) printf("y[%d]=%g\n", i, y[i]);
    printf("sizeof *h=%zu row distance=%td\n", sizeof *h, (char *)h[2] - (char *)h[0]);
    free(h);
    int m = 6;
    double (*big)[m] = calloc(m, sizeof *big);
    if (!big) return 1;
    fill(m, big);
    printf("big trace=%g corner=%g\n", trace(m, big), big[m - 1][m - 1]);
    free(big);
    int k = 2;
    int (*tri)[k][k] = malloc(3 * sizeof *tri);
    if (!tri) return 1;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < k; b++)
            for (int c = 0; c < k; c++) tri[a][b][c] = a * 100 + b * 10 + c;
    printf("tri[2][1][0]=%d sizeof *tri=%zu\n", tri[2][1][0], sizeof *tri);
    free(tri);
    return 0;
}
