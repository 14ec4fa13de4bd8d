/* convolution-3d (PolyBench/GPU style): an 11-point 3-D filter with literal coefficients.
 *
 * Benchmark suite of issue 15: flat heap volumes indexed `A[(i * nj + j) * nk + k]`, `parallel
 * loop collapse(3)`, repeated REPS times with the output fed back. -DN=... sets the side,
 * -DREPS=... the repetitions.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 144
#endif
#ifndef REPS
#define REPS 10
#endif

#define IDX(i, j, k) (((i) * nj + (j)) * nk + (k))

static void convolution3d(int ni, int nj, int nk, const double *A, double *B)
{
    const double c11 = +2, c21 = +5, c31 = -8;
    const double c12 = -3, c22 = +6, c32 = -9;
    const double c13 = +4, c23 = +7, c33 = +10;
#pragma acc parallel loop collapse(3) present(A[0:ni*nj*nk], B[0:ni*nj*nk])
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++)
            for (int k = 1; k < nk - 1; k++)
                B[IDX(i, j, k)] =
                    (c11 * A[IDX(i - 1, j - 1, k - 1)] + c13 * A[IDX(i + 1, j - 1, k - 1)] +
                     c21 * A[IDX(i - 1, j - 1, k - 1)] + c23 * A[IDX(i + 1, j - 1, k - 1)] +
                     c31 * A[IDX(i - 1, j - 1, k - 1)] + c33 * A[IDX(i + 1, j - 1, k - 1)] +
                     c12 * A[IDX(i, j - 1, k)] + c22 * A[IDX(i, j, k)] +
                     c32 * A[IDX(i, j + 1, k)] + c11 * A[IDX(i - 1, j - 1, k + 1)] +
                     c13 * A[IDX(i + 1, j - 1, k + 1)] + c21 * A[IDX(i - 1, j, k + 1)] +
                     c23 * A[IDX(i + 1, j, k + 1)] + c31 * A[IDX(i - 1, j + 1, k + 1)] +
                     c33 * A[IDX(i + 1, j + 1, k + 1)]) / 64.0;
}

int main(void)
{
    const int ni = N, nj = N, nk = N;
    size_t len = (size_t)ni * nj * nk;
    double *A = malloc(sizeof(double) * len);
    double *B = malloc(sizeof(double) * len);
    if (!A || !B) {
        fprintf(stderr, "convolution-3d: out of memory\n");
        return 1;
    }
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            for (int k = 0; k < nk; k++) {
                A[IDX(i, j, k)] = (double)((i + j * 3 + k * 5) % 17) / 17.0;
                B[IDX(i, j, k)] = 0.0;
            }
#pragma acc data copy(A[0:len], B[0:len])
    for (int r = 0; r < REPS; r++) {
        if (r % 2 == 0)
            convolution3d(ni, nj, nk, A, B);
        else
            convolution3d(ni, nj, nk, B, A);
    }
    double sum = 0.0;
    for (size_t i = 0; i < len; i++)
        sum += A[i] - 0.25 * B[i];
    printf("convolution-3d n=%d reps=%d checksum=%.12e\n", N, REPS, sum);
    free(A);
    free(B);
    return 0;
}
