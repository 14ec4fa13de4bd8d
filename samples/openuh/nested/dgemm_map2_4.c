/* dgemm_map2_4.c — the OpenUH DGEMM benchmark as OpenUH's sources write it (seeds/002, §3.2,
 * Fig. 6 Map2_4: "Both grid and block are two dimensions"): the i and j loops are each
 * `loop gang vector`, a nest OpenACC 2.0 forbids (§2.7.2) and `--dialect openuh` accepts. accsim
 * runs it as the 2.0 nest `gang worker` / `vector`; `emit-cuda --dialect openuh` maps it as the
 * paper's Map2_4 (i over blockIdx.y/threadIdx.y, j over blockIdx.x/threadIdx.x).
 * C = alpha*A*B + beta*C on 48x48 small integers: exact arithmetic, any device prints the same.
 * accsim-flags: --dialect openuh
 */
#include <stdio.h>
#include <stdlib.h>

#define N 48

int main(void) {
    int n = N;
    double alpha = 1.5, beta = -0.5;
    double *A = malloc((size_t)n * n * sizeof *A);
    double *B = malloc((size_t)n * n * sizeof *B);
    double *C = malloc((size_t)n * n * sizeof *C);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (double)((i + 2 * j) % 9 - 4);
            B[i * n + j] = (double)((3 * i + j) % 7 - 3);
            C[i * n + j] = (double)((i * j) % 5);
        }
#pragma acc parallel copyin(A[0:n*n], B[0:n*n]) copy(C[0:n*n])
    {
#pragma acc loop gang vector
        for (int i = 0; i < n; i++) {
#pragma acc loop gang vector
            for (int j = 0; j < n; j++) {
                double s = 0.0;
                for (int k = 0; k < n; k++)
                    s += A[i * n + k] * B[k * n + j];
                C[i * n + j] = alpha * s + beta * C[i * n + j];
            }
        }
    }
    double trace = 0.0, sum = 0.0;
    for (int i = 0; i < n; i++) {
        trace += C[i * n + i];
        for (int j = 0; j < n; j++)
            sum += C[i * n + j];
    }
    printf("dgemm %dx%d: trace %.2f sum %.2f C[5][7] %.2f\n", n, n, trace, sum, C[5 * n + 7]);
    free(A);
    free(B);
    free(C);
    return 0;
}
