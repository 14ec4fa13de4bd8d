/* jacobi.c — OpenUH benchmark 1 of 6: 2-D Jacobi relaxation (small size).
 *
 * From Tian et al., "Compiling a High-level Directive-Based Programming Model for GPGPUs" (seeds/
 * 002, §5.1: Jacobi 2048x2048, a double nested parallel loop). Here 64x64 and 10 sweeps, so a slow
 * interpreter finishes in seconds; -DN=... -DITERS=... change that.
 * Each sweep: Anew = average of the four neighbours of A on the interior, err = max |Anew - A|
 * (a `max` reduction, §2.5.11), then A = Anew. The grids stay on the device for all sweeps
 * (`data copy(A) create(Anew)`, §2.6.3); only err comes back each sweep.
 * Loop mapping: the paper's Map2_1 — outer loop over gangs, inner loop over vector lanes
 * (`loop gang` / `loop vector`, §2.7.2, §2.7.4); consecutive lanes touch consecutive j, so the
 * accesses coalesce on a GPU.
 * All values are integers divided by powers of 4, so every operation is exact and any device
 * (or FMA contraction) prints the same digits.
 *
 * Expected output: gcc-derived (see ../acc/README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 64
#endif
#ifndef ITERS
#define ITERS 10
#endif

int main(void) {
    int n = N;
    double *A = malloc((size_t)n * n * sizeof *A);
    double *Anew = malloc((size_t)n * n * sizeof *Anew);
    if (!A || !Anew) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = 0.0;
            if (i == 0) v = 255.0;                   /* hot top edge */
            else if (j == 0) v = (double)(i % 64);   /* ramp on the left edge */
            A[i * n + j] = v;
            Anew[i * n + j] = v;
        }

    double err = 0.0;
#pragma acc data copy(A[0:n*n]) create(Anew[0:n*n])
    for (int iter = 0; iter < ITERS; iter++) {
        err = 0.0;
#pragma acc parallel loop gang present(A[0:n*n], Anew[0:n*n]) reduction(max:err)
        for (int i = 1; i < n - 1; i++) {
#pragma acc loop vector reduction(max:err)
            for (int j = 1; j < n - 1; j++) {
                Anew[i * n + j] = 0.25 * (A[(i - 1) * n + j] + A[(i + 1) * n + j] +
                                          A[i * n + j - 1] + A[i * n + j + 1]);
                double d = Anew[i * n + j] - A[i * n + j];
                d = d < 0.0 ? -d : d;
                err = d > err ? d : err;
            }
        }
#pragma acc parallel loop gang present(A[0:n*n], Anew[0:n*n])
        for (int i = 1; i < n - 1; i++) {
#pragma acc loop vector
            for (int j = 1; j < n - 1; j++)
                A[i * n + j] = Anew[i * n + j];
        }
        if (iter == 0 || iter == ITERS - 1) printf("iteration %2d: err = %.6f\n", iter + 1, err);
    }

    double sum = 0.0;
    for (int i = 0; i < n * n; i++) sum += A[i];
    printf("jacobi %dx%d, %d iterations: A[1][1] = %.6f, A[%d][%d] = %.6f\n", n, n, ITERS,
           A[1 * n + 1], 5, 5, A[5 * n + 5]);
    printf("checksum = %.6f\n", sum);
    free(A);
    free(Anew);
    return 0;
}
