// Issue 12 item 2: an array named in a data clause through a subarray is not mapped a second
// time, whole, by the compute construct: it appears in a data clause, so no implicit
// present_or_copy applies (§2.5.1, §2.5.2); the kernel uses the device copy of the mapped part
// (§2.7.1 subarrays). Variants: local and global arrays, the construct's own clause and an
// enclosing data construct, parallel and kernels, a two-dimensional array mapped by rows, a
// struct member array, C89 and C99 loop declarations.
#include <stdio.h>

#define N 100

int g[N];

struct grid {
    int n;
    double v[N];
};

int main(void)
{
    int a[N];
    double m[8][N];
    struct grid s;
    int i, j;
    long sum = 0;

    for (i = 0; i < N; i++) {
        a[i] = i;
        g[i] = 2 * i;
        s.v[i] = 1.0;
    }
    s.n = N;
    for (i = 0; i < 8; i++)
        for (j = 0; j < N; j++)
            m[i][j] = i;

    /* The first half of a local array, in the construct's own clause. */
#pragma acc parallel loop copy(a[0:50])
    for (int k = 0; k < 50; k++)
        a[k] += 1000;

    /* The middle of a global array, mapped by an enclosing data construct; kernels. */
#pragma acc data copy(g[10:20])
    {
#pragma acc kernels loop independent
        for (int k = 10; k < 30; k++)
            g[k] = -g[k];
    }

    /* Rows 2..5 of a two-dimensional array. */
#pragma acc data copy(m[2:4][0:N])
    {
#pragma acc parallel loop collapse(2)
        for (int r = 2; r < 6; r++)
            for (int c = 0; c < N; c++)
                m[r][c] *= 10;
    }

    /* Part of a struct member array. */
#pragma acc parallel loop copy(s.v[0:10])
    for (int k = 0; k < 10; k++)
        s.v[k] = k;

    for (i = 0; i < N; i++)
        sum += a[i] + g[i];
    printf("a[0] = %d, a[49] = %d, a[50] = %d\n", a[0], a[49], a[50]);
    printf("g[9] = %d, g[10] = %d, g[29] = %d, g[30] = %d\n", g[9], g[10], g[29], g[30]);
    printf("m[1][0] = %.0f, m[2][0] = %.0f, m[5][99] = %.0f, m[6][0] = %.0f\n", m[1][0], m[2][0], m[5][99], m[6][0]);
    printf("s.v[9] = %.0f, s.v[10] = %.0f\n", s.v[9], s.v[10]);
    printf("sum = %ld\n", sum);
    return 0;
}
