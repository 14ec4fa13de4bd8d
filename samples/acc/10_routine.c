/* 10_routine.c — calling functions from compute regions: the routine directive.
 *
 * Teaches: a function called on the device must be compiled for it: `#pragma acc routine` before
 * its definition or prototype (§2.12.1), or `#pragma acc routine(name)` anywhere a prototype may
 * appear, before any use. The clause says which loop levels the function may itself partition,
 * and so where it may be called from:
 *   seq    (§2.12.1.4): no partitioned loops inside; callable anywhere, even in a vector loop;
 *   vector (§2.12.1.3): contains `loop vector`; called in vector-single mode, e.g. from a gang or
 *                       worker loop but not from a vector loop;
 *   worker (§2.12.1.2): contains `loop worker`; called in worker-single mode, e.g. from a gang loop.
 * Variables declared in a called function are private to the calling thread (§2.6.1).
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

/* seq: a polynomial evaluated by one thread (Horner) */
#pragma acc routine seq
static double poly(double x) {
    return ((0.5 * x - 1.0) * x + 2.0) * x - 0.25;
}

/* seq, declared by name before its use; the definition is further down */
static int collatz_steps(int v);
#pragma acc routine(collatz_steps) seq

/* vector: scales one row, its iterations over the vector lanes of the calling worker */
#pragma acc routine vector
static void scale_row(int m, double *row, double s) {
#pragma acc loop vector
    for (int j = 0; j < m; j++) row[j] = s * row[j];
}

/* worker: adds a vector to every row of a block, rows over workers, columns over vector lanes */
#pragma acc routine worker
static void add_to_rows(int rows, int m, double *block, const double *v) {
#pragma acc loop worker
    for (int r = 0; r < rows; r++) {
#pragma acc loop vector
        for (int j = 0; j < m; j++) block[r * m + j] += v[j];
    }
}

int main(void) {
    int n = 64, m = 48;
    double *a = malloc((size_t)n * m * sizeof *a);
    double *v = malloc(m * sizeof *v);
    int *steps = malloc(n * sizeof *steps);
    if (!a || !v || !steps) return 1;
    for (int j = 0; j < m; j++) v[j] = 0.25 * j;

#pragma acc data create(a[0:n*m]) copyin(v[0:m]) copyout(steps[0:n])
    {
        /* a seq routine called in a vector loop: one call per element */
#pragma acc parallel loop gang present(a[0:n*m])
        for (int i = 0; i < n; i++) {
#pragma acc loop vector
            for (int j = 0; j < m; j++)
                a[i * m + j] = poly(0.5 * ((i + j) % 8));
        }

        /* a vector routine called once per row from a gang loop */
#pragma acc parallel loop gang present(a[0:n*m])
        for (int i = 0; i < n; i++)
            scale_row(m, &a[i * m], i % 2 ? 2.0 : -1.0);

        /* a worker routine called once per block of 8 rows from a gang loop */
#pragma acc parallel loop gang num_workers(4) present(a[0:n*m], v[0:m])
        for (int b = 0; b < n / 8; b++)
            add_to_rows(8, m, &a[b * 8 * m], v);

        /* a seq routine with a data-dependent loop, called in a gang vector loop */
#pragma acc parallel loop gang vector present(steps[0:n])
        for (int i = 0; i < n; i++)
            steps[i] = collatz_steps(i + 1);

#pragma acc update host(a[0:n*m])
    }

    double sum = 0.0;
    long ssum = 0;
    for (int i = 0; i < n * m; i++) sum += a[i];
    for (int i = 0; i < n; i++) ssum += steps[i];
    printf("a[0] = %.6f, a[1*48+5] = %.6f, sum(a) = %.6f\n", a[0], a[m + 5], sum);
    printf("collatz steps of 27 = %d, sum = %ld\n", steps[26], ssum);
    free(a);
    free(v);
    free(steps);
    return 0;
}

static int collatz_steps(int v) {
    int s = 0;
    while (v != 1) {
        v = v % 2 ? 3 * v + 1 : v / 2;
        s++;
    }
    return s;
}
