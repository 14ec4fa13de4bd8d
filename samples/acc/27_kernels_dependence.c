/* 27_kernels_dependence.c — which loops of a kernels region run in parallel, and why.
 *
 * Teaches: in a `kernels` construct (§2.5.2) a loop with no `gang`, `worker`, `vector`, `seq` or
 * `independent` clause — and a plain `for` loop with no directive — is an `auto` loop (§2.7.6): "the
 * implementation cannot apply any parallelism unless the loop has the independent clause … or the
 * implementation can analyze the loop and determine that the loop iterations are data
 * independent". accsim's dependence test is conservative: it parallelises a loop only when it can
 * prove that no two iterations touch the same element with one of them writing. Run
 * `accsim info samples/acc/27_kernels_dependence.c` to see each decision, nvc -Minfo style:
 *   - `x[i] = ...` and `m[i][j] = ...`: different iterations write different elements — parallel;
 *   - `a[i] = a[i-1] + ...`: iteration i reads what iteration i-1 wrote (a recurrence) — sequential;
 *   - `t` assigned at the top of every iteration and used only there — private, parallel;
 *   - `s += ...` without a reduction clause — sequential; with `reduction(+:s)` — parallel (§2.7.11);
 *   - writes through a pointer `p` next to reads through `q`: C cannot tell them apart — sequential,
 *     unless `loop independent` (§2.7.9) asserts the iterations independent.
 * The results are the same whichever way a loop runs; only the launch configuration differs.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
    int n = N;
    double x[N], a[N], m[N][N], y[N];
    double *p = malloc(n * sizeof *p), *q = malloc(n * sizeof *q);
    if (!p || !q) return 1;
    for (int i = 0; i < n; i++) q[i] = 0.5 * i;
    double s = 0.0, s2 = 0.0;

#pragma acc kernels copyout(x, a, m, y) copy(p[0:n]) copyin(q[0:n])
    {
        for (int i = 0; i < n; i++)          /* parallel: x[i] only */
            x[i] = 2.0 * i;

        a[0] = 1.0;
        for (int i = 1; i < n; i++)          /* sequential: a[i] depends on a[i-1] */
            a[i] = a[i - 1] + x[i];

        for (int i = 0; i < n; i++)          /* parallel outer (gang), parallel inner (vector) */
            for (int j = 0; j < n; j++)
                m[i][j] = x[i] + j;

        for (int i = 0; i < n; i++) {        /* parallel: t is private to each iteration */
            double t = x[i] * 0.5;
            y[i] = t * t;
        }

        for (int i = 0; i < n; i++)          /* sequential: s is carried from one iteration to the next */
            s += x[i];

#pragma acc loop reduction(+:s2)
        for (int i = 0; i < n; i++)          /* parallel: a reduction */
            s2 += x[i];

        for (int i = 0; i < n; i++)          /* sequential: p and q may be the same array */
            p[i] = q[i] + 1.0;

#pragma acc loop independent
        for (int i = 0; i < n; i++)          /* parallel: asserted */
            p[i] = p[i] + q[i];
    }

    printf("x[5] = %.1f, a[%d] = %.1f, m[3][4] = %.1f, y[7] = %.2f\n", x[5], n - 1, a[n - 1], m[3][4], y[7]);
    printf("s = %.1f, s2 = %.1f, p[10] = %.1f\n", s, s2, p[10]);
    free(p);
    free(q);
    return 0;
}
