// Issue 12 (real-code samples): the classic laplace2d of the OpenACC labs: static 2-D grids kept
// on the device by one data construct with clauses on the bare array names (`copy(A)
// create(Anew)`, §2.6.3), kernels regions whose loops the implementation parallelises (§2.5.2,
// §2.7.6), the convergence error a max reduction (§2.7.11).
#include <stdio.h>
#include <math.h>

#define NN 48
#define NM 48

static float A[NN][NM];
static float Anew[NN][NM];

int main(void) {
    const int iter_max = 100;
    const float tol = 1.0e-5f;
    for (int j = 0; j < NN; j++)
        for (int i = 0; i < NM; i++) A[j][i] = 0.0f;
    for (int i = 0; i < NM; i++) A[0][i] = 1.0f;
    for (int i = 0; i < NM; i++) Anew[0][i] = 1.0f;
    float error = 1.0f;
    int iter = 0;
#pragma acc data copy(A) create(Anew)
    while (error > tol && iter < iter_max) {
        error = 0.0f;
#pragma acc kernels
        {
#pragma acc loop independent reduction(max:error)
            for (int j = 1; j < NN - 1; j++) {
#pragma acc loop independent reduction(max:error)
                for (int i = 1; i < NM - 1; i++) {
                    Anew[j][i] = 0.25f * (A[j][i + 1] + A[j][i - 1] + A[j - 1][i] + A[j + 1][i]);
                    error = fmaxf(error, fabsf(Anew[j][i] - A[j][i]));
                }
            }
#pragma acc loop independent
            for (int j = 1; j < NN - 1; j++) {
#pragma acc loop independent
                for (int i = 1; i < NM - 1; i++) A[j][i] = Anew[j][i];
            }
        }
        if (iter % 25 == 0) printf("%5d, %0.6f\n", iter, error);
        iter++;
    }
    printf("iterations: %d, A[1][24] = %0.6f, A[24][24] = %0.6f\n", iter, A[1][24], A[24][24]);
    return 0;
}
