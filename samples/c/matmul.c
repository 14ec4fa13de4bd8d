// Exercises: a small dense matrix multiply (double, 48x48) in i-j-k and
// i-k-j orders with flat heap arrays, checking both agree, and printing
// the trace, a few entries and a checksum with %.17g.
#include <stdio.h>
#include <stdlib.h>

#define N 48

int main(void) {
    double *a = malloc(N * N * sizeof *a), *b = malloc(N * N * sizeof *b);
    double *c1 = calloc(N * N, sizeof *c1), *c2 = calloc(N * N, sizeof *c2);
    if (!a || !b || !c1 || !c2) return 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i * N + j] = (double)((i * 7 + j * 3) % 11) / 10.0 - 0.5;
            b[i * N + j] = (double)((i * 5 + j * 13) % 17) / 8.0;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++) s += a[i * N + k] * b[k * N + j];
            c1[i * N + j] = s;
        }
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            double aik = a[i * N + k];
            for (int j = 0; j < N; j++) c2[i * N + j] += aik * b[k * N + j];
        }
    double trace = 0, sum = 0, maxdiff = 0;
    for (int i = 0; i < N; i++) trace += c1[i * N + i];
    for (int i = 0; i < N * N; i++) {
        sum += c1[i] * (i % 7 + 1);
        double d = c1[i] - c2[i];
        if (d < 0) d = -d;
        if (d > maxdiff) maxdiff = d;
    }
    printf("trace=%.17g\nweighted sum=%.17g\nmax |ijk-ikj|=%.3g\n", trace, sum, maxdiff);
    int idx[][2] = {{0, 0}, {1, 2}, {17, 33}, {N - 1, N - 1}};
    for (int t = 0; t < 4; t++)
        printf("c[%d][%d]=%.17g\n", idx[t][0], idx[t][1], c1[idx[t][0] * N + idx[t][1]]);
    float fa[4][4], fb[4][4], fc[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) { fa[i][j] = 0.1f * (i + 1) + j; fb[i][j] = (i == j) ? 2.0f : 0.3f; }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++) s += fa[i][k] * fb[k][j];
            fc[i][j] = s;
        }
    for (int i = 0; i < 4; i++) printf("%.9g %.9g %.9g %.9g\n", fc[i][0], fc[i][1], fc[i][2], fc[i][3]);
    free(a); free(b); free(c1); free(c2);
    return 0;
}
