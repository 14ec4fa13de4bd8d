// Issue 12 (session 7, item 2): the vector lanes of a gang share the gang's `firstprivate` copy.
// `firstprivate(scale)` on a `parallel` gives each gang one copy (§2.5.10); the lanes of the
// vector loop all write it (`scale = j`), with no synchronisation between them before the end
// of the loop (§1.2), and the gang then reads whichever write came last: a data race. The
// second kernel writes its copy the same way but each lane only reads the value it wrote
// itself, so no value passes between lanes (compilers give each lane its own copy, as
// samples/regress/gpu_counter_in_memory.c relies on): `check` must stay quiet there.
#include <stdio.h>

#define N 16
#define M 64

static int out[N], sums[N][M];

int main(void)
{
    int scale = 3;
#pragma acc parallel loop gang firstprivate(scale) copyout(out)
    for (int i = 0; i < N; i++) {
#pragma acc loop vector
        for (int j = 0; j < M; j++)
            if (j % 5 == 1)
                scale = j;
        out[i] = scale; /* expect: data-race */
    }
#pragma acc parallel loop gang firstprivate(scale) copyout(sums)
    for (int i = 0; i < N; i++) {
#pragma acc loop vector
        for (int j = 0; j < M; j++) {
            scale = i + j;
            sums[i][j] = 2 * scale;
        }
    }
    long s = 0, t = 0;
    for (int i = 0; i < N; i++) {
        s += out[i];
        for (int j = 0; j < M; j++)
            t += sums[i][j];
    }
    printf("last scales: %ld, sums: %ld\n", s, t);
    return 0;
}
