/* laplacian_map3_3.c — the OpenUH Laplacian benchmark as OpenUH's sources write it (seeds/002,
 * §3.2, Fig. 7 Map3_3, "mapped to the outmost loop to compute continuous memory"): `loop vector`
 * / `loop gang vector` / `loop gang` over x, y, z with x contiguous — a nest OpenACC 2.0 forbids
 * (gang inside vector, §2.7.2) and `--dialect openuh` accepts. accsim runs it as the 2.0 nest
 * `gang` / `worker` / `vector`; `emit-cuda --dialect openuh` maps it as Map3_3 (x over
 * threadIdx.x, y over blockIdx.y·blockDim.y + threadIdx.y, z over blockIdx.x).
 * 12^3 grid of small integers: exact.
 * accsim-flags: --dialect openuh
 */
#include <stdio.h>

#define N 12

static int u[N * N * N], lap[N * N * N];

int main(void) {
    for (int z = 0; z < N; z++)
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++)
                u[(z * N + y) * N + x] = (x * x + 2 * y + 3 * z) % 17;
#pragma acc parallel copyin(u) copy(lap)
    {
#pragma acc loop vector
        for (int x = 1; x < N - 1; x++) {
#pragma acc loop gang vector
            for (int y = 1; y < N - 1; y++) {
#pragma acc loop gang
                for (int z = 1; z < N - 1; z++) {
                    int c = (z * N + y) * N + x;
                    lap[c] = u[c - 1] + u[c + 1] + u[c - N] + u[c + N] + u[c - N * N] + u[c + N * N] - 6 * u[c];
                }
            }
        }
    }
    long sum = 0, abs_sum = 0;
    for (int c = 0; c < N * N * N; c++) {
        sum += lap[c];
        abs_sum += lap[c] < 0 ? -lap[c] : lap[c];
    }
    printf("laplacian %d^3: sum %ld |sum| %ld lap[center] %d\n", N, sum, abs_sum, lap[(6 * N + 6) * N + 6]);
    return 0;
}
