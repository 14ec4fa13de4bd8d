// Exercises: multi-dimensional arrays: initialization, row-major layout,
// passing int a[][4] and int (*a)[4] to functions, arrays of strings.
#include <stdio.h>

#define R 3
#define C 4

static int sum_rows(int a[][C], int rows) {
    int s = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < C; j++) s += a[i][j] * (i + 1);
    return s;
}

static void transpose(int (*src)[C], int dst[C][R]) {
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) dst[j][i] = src[i][j];
}

int main(void) {
    int m[R][C] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    int t[C][R];
    transpose(m, t);
    for (int i = 0; i < C; i++) {
        for (int j = 0; j < R; j++) printf("%3d", t[i][j]);
        printf("\n");
    }
    printf("weighted sum %d\n", sum_rows(m, R));
    int *flat = &m[0][0];
    for (int k = 0; k < R * C; k++) printf("%d%c", flat[k], k == R * C - 1 ? '\n' : ',');
    printf("sizeof m=%zu m[0]=%zu m[0][0]=%zu\n", sizeof m, sizeof m[0], sizeof m[0][0]);
    printf("&m[1][0]-&m[0][0]=%td\n", &m[1][0] - &m[0][0]);
    printf("m[1]-m[0] as rows: %td\n", (m + 1) - m);
    int cube[2][3][4];
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) cube[i][j][k] = n++;
    printf("cube[1][2][3]=%d cube[1][0][2]=%d\n", cube[1][2][3], cube[1][0][2]);
    int partial[3][3] = {{1}, {2, 3}};
    for (int i = 0; i < 3; i++) printf("%d %d %d\n", partial[i][0], partial[i][1], partial[i][2]);
    int flat_init[2][3] = {1, 2, 3, 4, 5};
    printf("flat init: %d %d %d | %d %d %d\n", flat_init[0][0], flat_init[0][1], flat_init[0][2],
           flat_init[1][0], flat_init[1][1], flat_init[1][2]);
    const char *names[] = {"alpha", "beta", "gamma", "delta"};
    for (int i = 0; i < 4; i++) printf("%s has %c at 1\n", names[i], names[i][1]);
    char grid[3][6] = {"abc", "defgh", ""};
    for (int i = 0; i < 3; i++) printf("row %d: '%s'\n", i, grid[i]);
    grid[2][0] = 'Z';
    grid[2][1] = 0;
    printf("row 2 now '%s'\n", grid[2]);
    double d[2][2] = {{1.5, 2.5}, {3.5, 4.5}};
    double det = d[0][0] * d[1][1] - d[0][1] * d[1][0];
    printf("det=%g\n", det);
    int unsized[] = {4, 5, 6, 7};
    printf("unsized count %zu\n", sizeof unsized / sizeof *unsized);
    return 0;
}
