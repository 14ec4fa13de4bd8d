/* 09_tile.c — strip-mine a loop nest into tiles.
 *
 * Teaches: `tile(t1, t2)` (§2.7.7) splits each of the following tightly nested loops into a tile
 * loop and an element loop and moves all tile loops outside all element loops, so each gang works
 * on one t2 x t1 block at a time (better locality for a transpose or a stencil). The FIRST size
 * applies to the INNERMOST loop. With `gang vector`, gang goes to the tile loops and vector to the
 * element loops. Sizes need not divide the trip counts: the last tiles are partial. `*` lets the
 * implementation choose a size. Tiling changes the schedule, never the result of a race-free loop.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>

#define N 50
#define M 70

static double a[N][M], t[M][N], b[N][M];

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) a[i][j] = (double)((i * 7 + j * 3) % 16);

    /* 8 x 8 tiles: transpose */
#pragma acc parallel loop tile(8, 8) copyin(a) copyout(t)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            t[j][i] = a[i][j];

    /* 32 (inner j) by 4 (outer i) tiles, gangs on tiles, vector lanes in a tile: 5-point blur */
#pragma acc parallel loop gang vector tile(32, 4) copyin(a) copyout(b)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            if (i == 0 || j == 0 || i == N - 1 || j == M - 1)
                b[i][j] = a[i][j];
            else
                b[i][j] = 0.5 * a[i][j] + 0.125 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
        }

    /* Tile sizes chosen by the implementation */
    double total = 0.0;
#pragma acc parallel loop tile(*, *) copyin(t) reduction(+:total)
    for (int j = 0; j < M; j++)
        for (int i = 0; i < N; i++)
            total += t[j][i];

    double bsum = 0.0;
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            bsum += b[i][j];
            if (t[j][i] != a[i][j]) bad++;
        }
    printf("transpose mismatches = %d, sum(t) = %.6f\n", bad, total);
    printf("blur: b[1][1] = %.6f, b[25][35] = %.6f, sum(b) = %.6f\n", b[1][1], b[25][35], bsum);
    return bad != 0;
}
