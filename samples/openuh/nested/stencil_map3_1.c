/* stencil_map3_1.c — the OpenUH 7-point stencil benchmark as OpenUH's sources write it
 * (seeds/002, §3.2, Fig. 7 Map3_1: "Both gang and vector are two dimensional"): `loop gang` /
 * `loop gang vector` / `loop vector`, a nest OpenACC 2.0 forbids (§2.7.2, §2.7.4) and
 * `--dialect openuh` accepts. accsim runs it as the 2.0 nest `gang` / `worker` / `vector`;
 * `emit-cuda --dialect openuh` maps it as Map3_1 (i over blockIdx.x, j over
 * blockIdx.y·blockDim.y + threadIdx.y, k over threadIdx.x).
 * 16^3 grid, 4 steps, integer data: exact.
 * accsim-flags: --dialect openuh
 */
#include <stdio.h>

#define N 16
#define STEPS 4

static long a[N][N][N], b[N][N][N];

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                a[i][j][k] = b[i][j][k] = (i * 7 + j * 3 + k) % 11;
#pragma acc data copy(a, b)
    for (int s = 0; s < STEPS; s++) {
#pragma acc parallel
        {
#pragma acc loop gang
            for (int i = 1; i < N - 1; i++) {
#pragma acc loop gang vector
                for (int j = 1; j < N - 1; j++) {
#pragma acc loop vector
                    for (int k = 1; k < N - 1; k++)
                        b[i][j][k] = (a[i - 1][j][k] + a[i + 1][j][k] + a[i][j - 1][k] + a[i][j + 1][k] + a[i][j][k - 1] + a[i][j][k + 1] + 2 * a[i][j][k]) % 1000;
                }
            }
        }
#pragma acc parallel
        {
#pragma acc loop gang
            for (int i = 1; i < N - 1; i++) {
#pragma acc loop gang vector
                for (int j = 1; j < N - 1; j++) {
#pragma acc loop vector
                    for (int k = 1; k < N - 1; k++)
                        a[i][j][k] = b[i][j][k];
                }
            }
        }
    }
    long sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                sum += a[i][j][k];
    printf("stencil %d^3 after %d steps: sum %ld a[3][4][5] %ld\n", N, STEPS, sum, a[3][4][5]);
    return 0;
}
