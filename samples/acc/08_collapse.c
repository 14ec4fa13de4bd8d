/* 08_collapse.c — schedule several tightly nested loops as one iteration space.
 *
 * Teaches: `collapse(n)` (§2.7.1) associates the loop directive with n tightly nested loops; their
 * iterations are scheduled together, so a short outer loop (here 3 planes) no longer limits the
 * parallelism. The loops must be tightly nested (nothing between the `for`s) and their trip counts
 * must be computable and invariant (rectangular nests). Whether gang/worker/vector apply to each
 * loop or to the linearised space is implementation-defined (§2.7.1); results are not.
 * Part 1: transpose with `collapse(2)`. Part 2: a 3-D sum with `collapse(3) reduction(+:...)`.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>

#define R 37
#define C 53
#define P 3

static double in[R][C], out[C][R];
static int vol[P][R][C];

int main(void) {
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) in[i][j] = i + 0.001 * j;
    for (int p = 0; p < P; p++)
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) vol[p][i][j] = (p + 1) * ((i * j) % 11);

#pragma acc parallel loop collapse(2) copyin(in) copyout(out)
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            out[j][i] = in[i][j];

    int bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            if (out[j][i] != in[i][j]) bad++;
    printf("transpose: out[52][36] = %.6f, mismatches = %d\n", out[C - 1][R - 1], bad);

    long total = 0;
#pragma acc parallel loop collapse(3) gang vector copyin(vol) reduction(+:total)
    for (int p = 0; p < P; p++)
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                total += vol[p][i][j];
    printf("collapse(3) sum = %ld\n", total);
    return bad != 0;
}
