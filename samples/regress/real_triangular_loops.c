// Issue 12 (real-code samples): triangular loop nests, as in dense linear algebra codes: a gang
// loop over rows whose inner vector loop runs to the diagonal (§2.7.2, §2.7.4), with a vector
// reduction per row (§2.7.11), and a symmetric fill that writes both triangles.
#include <stdio.h>

#define N 100

int main(void) {
    static double L[N][N], S[N][N];
    static double x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = 1.0 / (i + 1);
        for (int j = 0; j < N; j++) L[i][j] = (j <= i) ? (double)(i - j + 1) : 0.0;
    }
#pragma acc data copyin(L, x) copyout(y, S)
    {
        /* y = L x, touching only the lower triangle */
#pragma acc parallel loop gang
        for (int i = 0; i < N; i++) {
            double s = 0.0;
#pragma acc loop vector reduction(+:s)
            for (int j = 0; j <= i; j++) s += L[i][j] * x[j];
            y[i] = s;
        }
        /* S = symmetric, filled from the strict lower triangle and the diagonal */
#pragma acc parallel loop gang
        for (int i = 0; i < N; i++) {
            S[i][i] = 2.0 * i;
#pragma acc loop vector
            for (int j = 0; j < i; j++) {
                S[i][j] = (double)(i * N + j);
                S[j][i] = (double)(i * N + j);
            }
        }
    }
    printf("y[0] = %.6f, y[9] = %.6f, y[99] = %.6f\n", y[0], y[9], y[N - 1]);
    double trace = 0.0, asym = 0.0;
    for (int i = 0; i < N; i++) {
        trace += S[i][i];
        for (int j = 0; j < N; j++) asym += S[i][j] - S[j][i];
    }
    printf("trace = %.1f, asymmetry = %.1f, S[3][70] = %.1f\n", trace, asym, S[3][70]);
    return 0;
}
