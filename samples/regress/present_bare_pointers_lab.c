// Issue 12 item 7: the OpenACC training labs' Jacobi solver — `A` and `Anew` are `double *`
// whose targets `enter data copyin(A[0:n*m]) create(Anew[0:n*m])` mapped, and the compute
// constructs say `present(A, Anew)`. OpenACC 2.0 reads `present(A)` as the pointer itself (8
// bytes, never mapped: not-present), as gcc does; the PGI/NVIDIA compilers the labs were written
// for find the present data that contains what `A` points to, and so does accsim by default,
// with a portability note (--strict-2.0 keeps 2.0's reading). Variants: parallel and kernels,
// the present-or clauses (`pcopy(A)` finds the mapping too), a global pointer, C89 declarations.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NN 32
#define NM 32

double *g_err;   /* a global pointer, mapped by enter data */

static double jacobi_step(double *restrict A, double *restrict Anew, int n, int m)
{
    double err = 0.0;
#pragma acc parallel loop reduction(max:err) present(A, Anew)
    for (int j = 1; j < n - 1; j++) {
#pragma acc loop reduction(max:err)
        for (int i = 1; i < m - 1; i++) {
            Anew[j * m + i] = 0.25 * (A[j * m + i + 1] + A[j * m + i - 1] + A[(j - 1) * m + i] + A[(j + 1) * m + i]);
            err = fmax(err, fabs(Anew[j * m + i] - A[j * m + i]));
        }
    }
    return err;
}

static void swap(double *restrict A, double *restrict Anew, int n, int m)
{
    int i, j;
#pragma acc kernels present(A, Anew)
    for (j = 1; j < n - 1; j++)
        for (i = 1; i < m - 1; i++)
            A[j * m + i] = Anew[j * m + i];
}

int main(void)
{
    int n = NN, m = NM, iter = 0;
    double err = 1.0;
    double *A = malloc(sizeof(double) * n * m);
    double *Anew = malloc(sizeof(double) * n * m);
    g_err = malloc(sizeof(double) * 4);

    for (int k = 0; k < n * m; k++)
        A[k] = Anew[k] = 0.0;
    for (int j = 0; j < n; j++) {
        A[j * m] = 1.0;
        Anew[j * m] = 1.0;
    }

#pragma acc enter data copyin(A[0:n*m]) create(Anew[0:n*m]) create(g_err[0:4])
#pragma acc parallel loop present(Anew) pcopyin(A)
    for (int j = 0; j < n; j++)
        Anew[j * m] = A[j * m];
    while (err > 1e-3 && iter < 200) {
        err = jacobi_step(A, Anew, n, m);
        swap(A, Anew, n, m);
        iter++;
    }
#pragma acc parallel present(g_err)
    {
        g_err[0] = 1.0;
    }
#pragma acc exit data copyout(A[0:n*m]) delete(Anew[0:n*m]) copyout(g_err[0:4])
    printf("iterations = %d, err = %.6f\n", iter, err);
    printf("A[1][1] = %.6f, A[16][16] = %.6f, g_err[0] = %.1f\n", A[1 * m + 1], A[16 * m + 16], g_err[0]);
    free(A);
    free(Anew);
    free(g_err);
    return 0;
}
