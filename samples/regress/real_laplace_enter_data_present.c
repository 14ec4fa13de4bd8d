// Issue 12 (real-code samples): a Laplace solver in the style of the OpenACC training labs: heap
// grids mapped once with `enter data` (§2.6.4), every kernel naming them with `present(A, Anew)`
// on the bare pointer names (§2.6.5.7: the data they point to is present), a max reduction for
// the error (§2.7.11), and `exit data copyout` at the end.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define IDX(j, i, m) ((j) * (m) + (i))

static void initialize(float *restrict A, float *restrict Anew, int n, int m) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            A[IDX(j, i, m)] = 0.0f;
            Anew[IDX(j, i, m)] = 0.0f;
        }
    for (int i = 0; i < m; i++) {
        A[IDX(0, i, m)] = 1.0f;
        Anew[IDX(0, i, m)] = 1.0f;
    }
#pragma acc enter data copyin(A[0:n * m], Anew[0:n * m])
}

static float calc_next(float *restrict A, float *restrict Anew, int n, int m) {
    float error = 0.0f;
#pragma acc parallel loop reduction(max:error) present(A, Anew)
    for (int j = 1; j < n - 1; j++) {
#pragma acc loop reduction(max:error)
        for (int i = 1; i < m - 1; i++) {
            Anew[IDX(j, i, m)] = 0.25f * (A[IDX(j, i + 1, m)] + A[IDX(j, i - 1, m)]
                                        + A[IDX(j - 1, i, m)] + A[IDX(j + 1, i, m)]);
            error = fmaxf(error, fabsf(Anew[IDX(j, i, m)] - A[IDX(j, i, m)]));
        }
    }
    return error;
}

static void swap(float *restrict A, float *restrict Anew, int n, int m) {
#pragma acc parallel loop present(A, Anew)
    for (int j = 1; j < n - 1; j++) {
#pragma acc loop
        for (int i = 1; i < m - 1; i++) A[IDX(j, i, m)] = Anew[IDX(j, i, m)];
    }
}

int main(void) {
    const int n = 64, m = 64, iter_max = 200;
    const float tol = 1.0e-4f;
    float *A = malloc(sizeof(float) * n * m);
    float *Anew = malloc(sizeof(float) * n * m);
    initialize(A, Anew, n, m);
    float error = 1.0f;
    int iter = 0;
    while (error > tol && iter < iter_max) {
        error = calc_next(A, Anew, n, m);
        swap(A, Anew, n, m);
        if (iter % 50 == 0) printf("%5d, %0.6f\n", iter, error);
        iter++;
    }
#pragma acc exit data copyout(A[0:n * m]) delete(Anew[0:n * m])
    printf("iterations: %d, A[1][32] = %0.6f, A[32][32] = %0.6f\n", iter, A[IDX(1, 32, m)], A[IDX(32, 32, m)]);
    free(A);
    free(Anew);
    return 0;
}
