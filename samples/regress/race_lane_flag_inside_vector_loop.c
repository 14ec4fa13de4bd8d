// Issue 12 (session 8, checker miss): a value one vector lane computes and the other lanes of the
// same vector loop read, through a variable of the gang's code that no code around the loop
// uses. `limit` is declared in the gang loop's body, so it is one variable per gang (§2.7.10:
// only a `private` clause on the vector loop gives each lane its own copy) and the gang's lanes
// share it; lane 0 writes it and every other lane reads it, with no synchronisation between
// lanes before the end of the vector loop (§1.2), so a lane may read it before lane 0 wrote it
// (on a GPU each lane keeps its own register and reads an undefined value). The second kernel
// has the same race on the gang's copy made by `private(cap)` on the gang loop, the third on
// `base`, shared by the workers of a worker loop. In the last, each lane writes `scaled` before
// reading it, so no value passes between lanes: `check` must stay quiet there.
#include <stdio.h>

#define N 8
#define M 64

static int a[N][M], b[N][M], c[N][M], d[N][M], e[N][M];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = (i * 7 + j * 3) % 11;
#pragma acc parallel loop gang copyin(a) copyout(b)
    for (int i = 0; i < N; i++) {
        int limit;
#pragma acc loop vector
        for (int j = 0; j < M; j++) {
            if (j == 0)
                limit = a[i][0] + 3;
            b[i][j] = a[i][j] < limit ? a[i][j] : limit; /* expect: data-race */
        }
    }
    int cap;
#pragma acc parallel loop gang private(cap) copyin(a) copyout(c)
    for (int i = 0; i < N; i++) {
#pragma acc loop vector
        for (int j = 0; j < M; j++) {
            if (j == 0)
                cap = a[i][0] + 3;
            c[i][j] = a[i][j] < cap ? a[i][j] : cap; /* expect: data-race */
        }
    }
#pragma acc parallel loop gang num_workers(4) copyin(a) copyout(e)
    for (int i = 0; i < N; i++) {
        int base;
#pragma acc loop worker
        for (int j = 0; j < M; j++) {
            if (j == 0)
                base = a[i][0];
            e[i][j] = a[i][j] - base; /* expect: data-race */
        }
    }
#pragma acc parallel loop gang copyin(a) copyout(d)
    for (int i = 0; i < N; i++) {
        int scaled;
#pragma acc loop vector
        for (int j = 0; j < M; j++) {
            scaled = 2 * a[i][j];
            d[i][j] = scaled + i;
        }
    }
    long sb = 0, sc = 0, sd = 0, se = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            sb += b[i][j];
            sc += c[i][j];
            sd += d[i][j];
            se += e[i][j];
        }
    printf("clamped: %ld %ld, scaled: %ld, from row start: %ld\n", sb, sc, sd, se);
    return 0;
}
