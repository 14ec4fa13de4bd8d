/* Issue 15 (compile share), native engine: an OpenACC statement in host code runs in the
 * interpreter on a frame that now holds only the locals the statement names (its clauses'
 * expressions and variables, its kernels' captures, launch sizes and gang-loop counts, the body
 * of an `atomic` statement), not every local of the function. Every local such a statement reads
 * must reach it with its current value, and every local it writes must come back: clause
 * expressions of `if`, `async`, `wait`, `num_gangs`, `vector_length` and subarray bounds
 * (§2.5.1, §2.6, §2.7.1, §2.13), scalars a kernel captures by value (firstprivate, §2.5.1),
 * reduction results (§2.5.11), the counts of a variable-length array parameter (C11 6.7.6.2),
 * changed by the host between statements, inside loops and under `if`.
 */
// accsim-env: ACCSIM_JIT=eager
#include <stdio.h>
#include <stdlib.h>

/* The rows' length is read from a VLA parameter's count by the data clause and the kernel. */
static double scale_rows(int rows, int cols, double a[rows][cols], double by)
{
    double total = 0.0;
#pragma acc parallel loop copy(a[0:rows][0:cols]) reduction(+:total)
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            a[i][j] *= by;
            total += a[i][j];
        }
    return total;
}

int main(int argc, char **argv)
{
    int n = argc > 5 ? atoi(argv[1]) : 1000;
    int first = 10;
    int len = 90;
    int gangs = 4;
    int lanes = 32;
    int queue = 2;
    int on_device = argc < 7;
    double shift = 0.25;
    double *x = malloc(sizeof(double) * n);
    double *y = malloc(sizeof(double) * n);
    if (!x || !y)
        return 1;
    for (int i = 0; i < n; i++) {
        x[i] = i * 0.5;
        y[i] = 0.0;
    }
    double sum = 0.0;
#pragma acc data copyin(x[0:n]) copy(y[0:n])
    {
        for (int step = 0; step < 4; step++) {
            /* Locals the host changes between statements: the kernel must see each new value. */
            shift = shift * 2.0 + step;
            gangs = gangs + step;
#pragma acc parallel loop num_gangs(gangs) vector_length(lanes) firstprivate(shift) present(x[0:n], y[0:n])
            for (int i = 0; i < n; i++)
                y[i] += x[i] * shift;
            if (step % 2 == 0) {
                first = first + 5 * step;
                len = len - step;
#pragma acc update host(y[first:len]) if(on_device)
                printf("step %d: y[%d] = %.3f, y[%d] = %.3f\n", step, first, y[first], first + len - 1, y[first + len - 1]);
            } else {
#pragma acc parallel loop async(queue) present(y[0:n])
                for (int i = 0; i < n; i++)
                    y[i] -= 1.0;
#pragma acc wait(queue)
                queue = queue + 1;
            }
        }
        double part = 0.0;
#pragma acc parallel loop reduction(+:part) present(y[0:n])
        for (int i = 0; i < n; i++)
            part += y[i];
        /* The reduction's result, read after the construct and again after the data region. */
        sum = part;
        printf("sum in the region %.3f (queue now %d, gangs %d)\n", part, queue, gangs);
    }
    printf("sum after the region %.3f, y[n-1] %.3f\n", sum, y[n - 1]);

    int rows = 6, cols = 7;
    double (*m)[cols] = malloc(sizeof(double) * rows * cols);
    if (!m)
        return 1;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            m[i][j] = i + 0.125 * j;
    double t1 = scale_rows(rows, cols, m, 2.0);
    rows = 3;
    double t2 = scale_rows(rows, cols, m, 0.5);
    printf("scaled rows: %.4f %.4f m[5][6] %.4f m[2][6] %.4f\n", t1, t2, m[5][6], m[2][6]);

    /* A local counted in a host `atomic` statement (§2.12) and read after it. */
    int hits = 0;
    for (int i = 0; i < n; i += 7) {
        if (x[i] > 100.0) {
#pragma acc atomic update
            hits += 2;
        }
    }
    printf("hits %d\n", hits);
    free(m);
    free(x);
    free(y);
    return 0;
}
