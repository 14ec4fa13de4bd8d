/* 07_gang_worker_vector.c — the three levels of parallelism on a loop nest.
 *
 * Teaches: a parallel region has num_gangs gangs, each of num_workers workers, each with
 * vector_length vector lanes (§1.2, §2.5.6-§2.5.8). A loop marked `gang` spreads its iterations
 * over the gangs, `worker` over the workers of one gang, `vector` over the lanes of one worker
 * (§2.7.2-§2.7.4). They nest in that order only: gang outside worker outside vector (§1.7, §2.7.3).
 * A variable declared inside a loop body is private to the thread that runs that body (§2.6.1),
 * so `s` below is one accumulator per (gang, worker); the vector loop's `reduction(+:s)` (§2.7.11)
 * combines the lanes' partial sums into it at the end of the vector loop.
 * Part 1 fills a 3-D array with one nest of gang / worker / vector loops; part 2 is a matrix-vector
 * product with the rows over gangs and workers together (`gang worker`) and each row's dot
 * product over the vector lanes.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define NI 6
#define NJ 10
#define NK 70

static int cube[NI][NJ][NK];

int main(void) {
    /* Part 1: 3-D fill */
#pragma acc parallel num_gangs(4) num_workers(4) vector_length(32) copyout(cube)
    {
#pragma acc loop gang
        for (int i = 0; i < NI; i++) {
#pragma acc loop worker
            for (int j = 0; j < NJ; j++) {
#pragma acc loop vector
                for (int k = 0; k < NK; k++)
                    cube[i][j][k] = 10000 * i + 100 * j + k;
            }
        }
    }
    long long csum = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            for (int k = 0; k < NK; k++) csum += cube[i][j][k];
    printf("cube[5][9][69] = %d, sum = %lld\n", cube[NI - 1][NJ - 1][NK - 1], csum);

    /* Part 2: y = A x, rows over gangs and workers, columns over vector lanes */
    int n = 300, m = 200;
    double *A = malloc((size_t)n * m * sizeof *A);
    double *x = malloc(m * sizeof *x);
    double *y = malloc(n * sizeof *y);
    if (!A || !x || !y) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) A[i * m + j] = (double)((i + 2 * j) % 7 - 3);
    for (int j = 0; j < m; j++) x[j] = 0.5 * (j % 5);

#pragma acc parallel loop gang worker num_gangs(16) num_workers(4) vector_length(64) \
    copyin(A[0:n*m], x[0:m]) copyout(y[0:n])
    for (int i = 0; i < n; i++) {
        double s = 0.0;
#pragma acc loop vector reduction(+:s)
        for (int j = 0; j < m; j++)
            s += A[i * m + j] * x[j];
        y[i] = s;
    }

    double ysum = 0.0;
    for (int i = 0; i < n; i++) ysum += y[i];
    printf("y[0] = %.6f, y[1] = %.6f, y[%d] = %.6f\n", y[0], y[1], n - 1, y[n - 1]);
    printf("sum(y) = %.6f\n", ysum);
    free(A);
    free(x);
    free(y);
    return 0;
}
