/* jacobi_map2_3.c — the OpenUH Jacobi benchmark as OpenUH's sources write it (seeds/002, §3.2,
 * Fig. 6 Map2_3: "Two dimensional gangs and one dimensional vectors"): `loop gang` around
 * `loop gang vector`, a nest OpenACC 2.0 forbids (§2.7.2) and `--dialect openuh` accepts. accsim
 * runs it as the 2.0 nest `gang` / `vector`; `emit-cuda --dialect openuh` maps it as Map2_3
 * (i over blockIdx.y, j over blockIdx.x·blockDim.x + threadIdx.x).
 * 32x32 grid, 8 sweeps; values are integers divided by powers of 4, so the sums are exact.
 * accsim-flags: --dialect openuh
 */
#include <stdio.h>

#define N 32
#define ITERS 8

static double A[N][N], Anew[N][N];

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = Anew[i][j] = i == 0 ? 256.0 : (j == 0 ? (double)i : 0.0);
#pragma acc data copy(A) copy(Anew)
    for (int it = 0; it < ITERS; it++) {
#pragma acc parallel
        {
#pragma acc loop gang
            for (int i = 1; i < N - 1; i++) {
#pragma acc loop gang vector
                for (int j = 1; j < N - 1; j++)
                    Anew[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
            }
        }
#pragma acc parallel
        {
#pragma acc loop gang
            for (int i = 1; i < N - 1; i++) {
#pragma acc loop gang vector
                for (int j = 1; j < N - 1; j++)
                    A[i][j] = Anew[i][j];
            }
        }
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += A[i][j];
    printf("jacobi %dx%d after %d sweeps: sum %.6f A[1][1] %.6f A[5][3] %.6f\n", N, N, ITERS, sum, A[1][1], A[5][3]);
    return 0;
}
