// Issue 12 item 6: subarrays through pointers (§2.7.1) — an array of pointers `int *a[N]` with
// `copy(a[0:n][0:m])`, and chains deeper than two levels (`a[0:n][0:n][0:n]` on `int ***a`). The
// pointer arrays are copied in and pointed at the device rows; they are never copied home, so
// the host's pointers survive `copyout` and `exit data`. Variants: a local array of pointers,
// a global one, three levels of heap pointers with enter/exit data and update, kernels and
// parallel, C89 and C99 declarations. (gcc rejects these non-contiguous subarrays; nvc runs them.)
#include <stdio.h>
#include <stdlib.h>

#define N 6
#define M 5

int *rows[N];   /* a global array of pointers */

int main(void)
{
    int *a[N];
    int ***cube;
    int n = N, m = M;
    int i, j, k;
    long sum = 0;

    for (i = 0; i < n; i++) {
        a[i] = malloc(m * sizeof(int));
        rows[i] = malloc(m * sizeof(int));
        for (j = 0; j < m; j++) {
            a[i][j] = i + j;
            rows[i][j] = 1;
        }
    }
    cube = malloc(n * sizeof *cube);
    for (i = 0; i < n; i++) {
        cube[i] = malloc(n * sizeof **cube);
        for (j = 0; j < n; j++) {
            cube[i][j] = malloc(n * sizeof ***cube);
            for (k = 0; k < n; k++)
                cube[i][j][k] = i * 100 + j * 10 + k;
        }
    }

#pragma acc parallel loop copy(a[0:n][0:m])
    for (int r = 0; r < n; r++)
        for (int c = 0; c < m; c++)
            a[r][c] *= 2;

#pragma acc data copy(rows[1:4][0:m])
    {
#pragma acc kernels loop independent
        for (int r = 1; r < 5; r++)
            for (int c = 0; c < m; c++)
                rows[r][c] = r;
    }

#pragma acc enter data copyin(cube[0:n][0:n][0:n])
#pragma acc parallel loop collapse(3) present(cube[0:n][0:n][0:n])
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            for (int z = 0; z < n; z++)
                cube[x][y][z] += 1;
#pragma acc update host(cube[0:n][0:n][0:n])
    printf("cube[5][5][5] after update = %d\n", cube[5][5][5]);
#pragma acc parallel loop present(cube[0:n][0:n][0:n])
    for (int x = 0; x < n; x++)
        cube[x][x][x] = -1;
#pragma acc exit data copyout(cube[0:n][0:n][0:n])

    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            sum += a[i][j] + rows[i][j];
    printf("a[5][4] = %d, rows[0][0] = %d, rows[4][4] = %d, rows[5][0] = %d\n", a[5][4], rows[0][0], rows[4][4], rows[5][0]);
    printf("cube[2][2][2] = %d, cube[1][2][3] = %d\n", cube[2][2][2], cube[1][2][3]);
    printf("sum = %ld\n", sum);
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            free(cube[i][j]);
        free(cube[i]);
        free(a[i]);
        free(rows[i]);
    }
    free(cube);
    return 0;
}
