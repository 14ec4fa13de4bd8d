/* Issue 15, `check`'s memory: a proven kernel's writes down a column (`c[j][i]` over `j`) are
 * kept as one strided run per column instead of one run per element. The coherence model must
 * still know exactly which elements the kernels wrote (§2.6: the host and device copies are
 * separate; §2.10.1 `update`): a host read of an element a kernel wrote, before `update host`,
 * reads a stale copy (`stale-host-read`); the element beside it in the same row, which no kernel
 * wrote, is current (no finding); after `update host`, every element is current. The columns
 * are walked downwards and upwards.
 */
#include <stdio.h>
#include <stdlib.h>

#define M 96

int main(void)
{
    double (*lo)[M] = malloc(sizeof(double[M][M]));
    double (*up)[M] = malloc(sizeof(double[M][M]));
    if (!lo || !up)
        return 1;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            lo[i][j] = up[i][j] = i == j ? 1.0 : 0.0;
#pragma acc data copyin(lo[0:M][0:M], up[0:M][0:M])
    {
        /* The lower triangle of `lo`, column i by the iteration i, downwards. */
#pragma acc parallel loop
        for (int i = 0; i < M; i++)
            for (int j = i + 1; j < M; j++)
                lo[j][i] = 1.0 / (1.0 + i + j);
        /* The upper triangle of `up`, column i by the iteration i, upwards. */
#pragma acc parallel loop
        for (int i = 0; i < M; i++)
            for (int j = i - 1; j >= 0; j--)
                up[j][i] = 2.0 / (1.0 + i + j);
        double lo_diagonal = lo[5][5];
        double lo_upper = lo[4][5];
        double lo_lower = lo[5][4]; /* expect: stale-host-read */
        double up_lower = up[5][4];
        double up_upper = up[4][5]; /* expect: stale-host-read */
        printf("before update: %g %g %g %g %g\n", lo_diagonal, lo_upper, lo_lower, up_lower, up_upper);
#pragma acc update host(lo[0:M][0:M], up[0:M][0:M])
        double sum = 0.0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < M; j++)
                sum += (lo[i][j] + up[i][j]) * (1 + (i + 2 * j) % 5);
        printf("after update: %.12f\n", sum);
    }
    free(lo);
    free(up);
    return 0;
}
