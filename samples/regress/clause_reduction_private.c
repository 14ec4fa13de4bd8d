// Issue 12, compile-time errors: a reduction variable is already private to each thread, with the
// reduction's own initial value (§2.5.11, §2.7.11); naming it in `private` or `firstprivate` of
// the same construct gives it two data attributes (§2.6). Both sites: the two clauses.
// A data clause with a reduction (`copy(err) reduction(max:err)`) stays legal.
// expect-exit: 2
// expect-stderr: `err` appears in `private` and in `reduction` on `loop`
// expect-stderr: clause_reduction_private.c:27:52
// expect-stderr: `err` is in `reduction` here
// expect-stderr: `total` appears in `firstprivate` and in `reduction` on `parallel loop`
#include <math.h>
#include <stdio.h>

#define N 64

int main(void)
{
    double a[N][N], b[N][N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            a[j][i] = b[j][i] = (i * j) % 5;

    double err = 0.0;
#pragma acc parallel copyin(a, b) copy(err)
    {
#pragma acc loop gang reduction(max:err)
        for (int j = 0; j < N; j++) {
#pragma acc loop vector reduction(max:err) private(err) /* expect: compile-error */
            for (int i = 0; i < N; i++)
                err = fmax(err, fabs(a[j][i] - b[j][i]));
        }
    }

    double total = 0.0;
#pragma acc parallel loop reduction(+:total) firstprivate(total) copyin(a) /* expect: compile-error */
    for (int j = 0; j < N; j++)
        total += a[j][0];
    printf("%f %f\n", err, total);
    return 0;
}
