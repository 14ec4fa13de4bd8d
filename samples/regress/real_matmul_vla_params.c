// Issue 12 (real-code samples): a matrix product in a function with variable-length array
// parameters, the data clauses naming each parameter's whole extent as a two-dimensional subarray
// (§2.6.5: "the length for a dynamically allocated array must be explicitly specified"), a
// collapsed gang vector nest (§2.7.1) and a sequential inner product loop with a private sum.
#include <stdio.h>
#include <stdlib.h>

static void matmul(int n, int m, int p, const float A[n][m], const float B[m][p], float C[n][p]) {
#pragma acc parallel loop collapse(2) gang vector copyin(A[0:n][0:m], B[0:m][0:p]) copyout(C[0:n][0:p])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            float s = 0.0f;
#pragma acc loop seq
            for (int k = 0; k < m; k++) s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

int main(void) {
    int n = 30, m = 20, p = 25;
    float (*A)[m] = malloc(sizeof(float[n][m]));
    float (*B)[p] = malloc(sizeof(float[m][p]));
    float (*C)[p] = malloc(sizeof(float[n][p]));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++) A[i][k] = (float)((i + k) % 5);
    for (int k = 0; k < m; k++)
        for (int j = 0; j < p; j++) B[k][j] = (float)((k * j) % 3) - 1.0f;
    matmul(n, m, p, (const float (*)[m])A, (const float (*)[p])B, C);
    double trace = 0.0, sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            sum += C[i][j];
            if (i == j) trace += C[i][j];
        }
    printf("C[0][0] = %.1f, C[29][24] = %.1f, sum = %.1f, trace = %.1f\n", C[0][0], C[n - 1][p - 1], sum, trace);
    free(A);
    free(B);
    free(C);
    return 0;
}
