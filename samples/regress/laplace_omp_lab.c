// Issue 12 item 8: a Jacobi/Laplace solver written as the OpenACC training labs write it. It
// includes gcc's <omp.h> (whose `struct __attribute__((aligned(…))) tag` lang-c could not parse)
// and times itself with omp_get_wtime() (an OpenMP runtime routine accsim runs on its one host
// thread); the `#pragma omp` line is ignored without a word from `run` (item 13). The time goes
// to stderr, so stdout is deterministic. §2.6.5 (data copy/create), §2.5.11 (reduction max).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define NN 64
#define NM 64

double A[NN][NM];
double Anew[NN][NM];

int main(int argc, char **argv)
{
    const int n = NN;
    const int m = NM;
    const int iter_max = 300;
    const double tol = 1.0e-5;
    double error = 1.0;

    memset(A, 0, n * m * sizeof(double));
    memset(Anew, 0, n * m * sizeof(double));

#pragma omp parallel for
    for (int j = 0; j < n; j++) {
        A[j][0] = 1.0;
        Anew[j][0] = 1.0;
    }

    printf("Jacobi relaxation Calculation: %d x %d mesh\n", n, m);
    printf("running on %d host thread(s)\n", omp_get_max_threads());

    double st = omp_get_wtime();
    int iter = 0;

#pragma acc data copy(A) create(Anew)
    while (error > tol && iter < iter_max) {
        error = 0.0;

#pragma acc parallel loop reduction(max:error)
        for (int j = 1; j < n - 1; j++) {
#pragma acc loop reduction(max:error)
            for (int i = 1; i < m - 1; i++) {
                Anew[j][i] = 0.25 * (A[j][i + 1] + A[j][i - 1] + A[j - 1][i] + A[j + 1][i]);
                error = fmax(error, fabs(Anew[j][i] - A[j][i]));
            }
        }

#pragma acc parallel loop
        for (int j = 1; j < n - 1; j++) {
#pragma acc loop
            for (int i = 1; i < m - 1; i++) {
                A[j][i] = Anew[j][i];
            }
        }

        if (iter % 50 == 0)
            printf("%5d, %0.6f\n", iter, error);

        iter++;
    }

    double runtime = omp_get_wtime() - st;
    fprintf(stderr, " total: %f s\n", runtime);
    printf("%d iterations, A[%d][1] = %0.6f\n", iter, n / 2, A[n / 2][1]);
    return 0;
}
