/* dgemm.c — OpenUH benchmark 2 of 6: dense matrix multiply C = alpha*A*B + beta*C (small size).
 *
 * From Tian et al. (seeds/002, §5.1: "DGEMM written by ourselves", 8192x8192, a double nested
 * parallel loop with a sequential inner product). Here 64x64 (-DN=... to change).
 * Loop mapping: the paper's Map2_4 — both parallel loops over gangs and vector lanes; in OpenACC
 * 2.0 terms the two loops are collapsed (§2.7.1) and spread `gang vector`, and the k loop runs
 * sequentially in each thread (`loop seq`, §2.7.5). A, B travel in (`copyin`), C both ways
 * (`copy`, since beta != 0).
 * The entries are small integers and alpha, beta are 1.5 and -0.5, so the arithmetic is exact.
 *
 * Expected output: gcc-derived (see ../acc/README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 64
#endif

int main(void) {
    int n = N;
    double alpha = 1.5, beta = -0.5;
    double *A = malloc((size_t)n * n * sizeof *A);
    double *B = malloc((size_t)n * n * sizeof *B);
    double *C = malloc((size_t)n * n * sizeof *C);
    if (!A || !B || !C) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (double)((i + 2 * j) % 9 - 4);
            B[i * n + j] = (double)((3 * i + j) % 7 - 3);
            C[i * n + j] = (double)((i * j) % 5);
        }

#pragma acc parallel loop gang vector collapse(2) copyin(A[0:n*n], B[0:n*n]) copy(C[0:n*n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
#pragma acc loop seq
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = alpha * s + beta * C[i * n + j];
        }

    double sum = 0.0, trace = 0.0;
    for (int i = 0; i < n; i++) {
        trace += C[i * n + i];
        for (int j = 0; j < n; j++) sum += C[i * n + j];
    }
    printf("dgemm %dx%d: C[0][0] = %.6f, C[%d][%d] = %.6f, trace = %.6f\n", n, n, C[0],
           n - 1, n - 1, C[(n - 1) * n + n - 1], trace);
    printf("checksum = %.6f\n", sum);
    free(A);
    free(B);
    free(C);
    return 0;
}
