/* Laplace equation, Jacobi iteration: the OpenACC lab as it is taught.
 *
 * Benchmark suite of issue 15 (code in the shapes people write, tuned for no engine): rows of a
 * heap grid through a pointer to arrays (`double (*A)[M]`), a `reduction(max:err)` with
 * `fmax`/`fabs` on the update loop, and a separate `collapse(2)` copy-back loop, all in one data
 * region. -DN=... sets the grid side (rows and columns), -DITER_MAX=... the iterations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1024
#endif
#define M N
#ifndef ITER_MAX
#define ITER_MAX 48
#endif

int main(void)
{
    const double tol = 1.0e-6;
    double (*A)[M] = malloc(sizeof(double[N][M]));
    double (*Anew)[M] = malloc(sizeof(double[N][M]));
    if (A == NULL || Anew == NULL) {
        fprintf(stderr, "laplace: out of memory\n");
        return 1;
    }
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            A[j][i] = 0.0;
            Anew[j][i] = 0.0;
        }
    for (int i = 0; i < M; i++) {
        A[0][i] = 1.0;
        Anew[0][i] = 1.0;
    }

    double err = 1.0;
    int iter = 0;
#pragma acc data copy(A[0:N]) create(Anew[0:N])
    while (err > tol && iter < ITER_MAX) {
        err = 0.0;
#pragma acc parallel loop reduction(max:err)
        for (int j = 1; j < N - 1; j++) {
#pragma acc loop reduction(max:err)
            for (int i = 1; i < M - 1; i++) {
                Anew[j][i] = 0.25 * (A[j][i + 1] + A[j][i - 1] + A[j - 1][i] + A[j + 1][i]);
                err = fmax(err, fabs(Anew[j][i] - A[j][i]));
            }
        }
#pragma acc parallel loop collapse(2)
        for (int j = 1; j < N - 1; j++)
            for (int i = 1; i < M - 1; i++)
                A[j][i] = Anew[j][i];
        iter++;
    }

    double sum = 0.0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++)
            sum += A[j][i];
    printf("laplace %dx%d iterations=%d error=%.12e sum=%.12e\n", N, M, iter, err, sum);
    free(A);
    free(Anew);
    return 0;
}
