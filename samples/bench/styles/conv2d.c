/* convolution-2d (PolyBench/GPU style): a 3 x 3 filter with literal coefficients.
 *
 * Benchmark suite of issue 15: flat heap images indexed `A[i * nj + j]`, the filter written out
 * term by term, `parallel loop collapse(2)` repeated REPS times with the output fed back.
 * -DN=... sets the image side, -DREPS=... the repetitions.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 2048
#endif
#ifndef REPS
#define REPS 16
#endif

static void convolution2d(int ni, int nj, const double *restrict A, double *restrict B)
{
    const double c11 = +0.2, c21 = +0.5, c31 = -0.8;
    const double c12 = -0.3, c22 = +0.6, c32 = -0.9;
    const double c13 = +0.4, c23 = +0.7, c33 = +0.10;
#pragma acc parallel loop collapse(2) present(A[0:ni*nj], B[0:ni*nj])
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++)
            B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[(i + 0) * nj + (j - 1)] +
                            c13 * A[(i + 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] +
                            c22 * A[(i + 0) * nj + (j + 0)] + c23 * A[(i + 1) * nj + (j + 0)] +
                            c31 * A[(i - 1) * nj + (j + 1)] + c32 * A[(i + 0) * nj + (j + 1)] +
                            c33 * A[(i + 1) * nj + (j + 1)];
}

int main(void)
{
    const int ni = N, nj = N;
    double *A = malloc(sizeof(double) * ni * nj);
    double *B = malloc(sizeof(double) * ni * nj);
    if (!A || !B) {
        fprintf(stderr, "convolution-2d: out of memory\n");
        return 1;
    }
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            A[i * nj + j] = (double)((i * 7 + j * 13) % 97) / 97.0;
            B[i * nj + j] = 0.0;
        }
#pragma acc data copy(A[0:ni*nj], B[0:ni*nj])
    for (int r = 0; r < REPS; r++) {
        if (r % 2 == 0)
            convolution2d(ni, nj, A, B);
        else
            convolution2d(ni, nj, B, A);
    }
    double sum = 0.0;
    for (int i = 0; i < ni * nj; i++)
        sum += A[i] + 0.5 * B[i];
    printf("convolution-2d n=%d reps=%d checksum=%.12e\n", N, REPS, sum);
    free(A);
    free(B);
    return 0;
}
