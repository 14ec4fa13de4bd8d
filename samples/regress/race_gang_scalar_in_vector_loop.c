// Issue 12 (session 7, item 1): a race on a variable of the gang's code that the lanes of a
// vector loop (or the workers of a worker loop) write. `where` is declared in the gang loop's
// body, so each gang has one `where` (§2.5.10, §2.7.10: only a `private` or `reduction` clause
// of the inner loop gives the threads copies of their own), shared by the gang's vector lanes:
// every lane that finds a zero writes it, with no synchronisation between lanes before the end
// of the vector loop (§1.2), and the gang then reads whichever write came last. `check` missed
// it because such a scalar lives in a register. The `reduction(max:…)` loop below is the
// race-free way to find the last zero; the `private(where)` loop gives each lane its own copy
// (so the gang's `where` keeps -1). The last kernel is the same race one level up: `first` is
// declared in a worker loop's body, one per worker, shared by that worker's lanes.
#include <stdio.h>

#define N 64
#define M 64

static int a[N][M];
static int last[N], last_max[N], last_private[N], first_w[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = (i + j) % 7;

#pragma acc data copyin(a) copyout(last, last_max, last_private, first_w)
    {
#pragma acc parallel loop gang
        for (int i = 0; i < N; i++) {
            int where = -1;
#pragma acc loop vector
            for (int j = 0; j < M; j++)
                if (a[i][j] == 0)
                    where = j;
            last[i] = where; /* expect: data-race */
        }

#pragma acc parallel loop gang
        for (int i = 0; i < N; i++) {
            int where = -1;
#pragma acc loop vector reduction(max:where)
            for (int j = 0; j < M; j++)
                if (a[i][j] == 0)
                    where = j;
            last_max[i] = where;
        }

#pragma acc parallel loop gang
        for (int i = 0; i < N; i++) {
            int where = -1;
#pragma acc loop vector private(where)
            for (int j = 0; j < M; j++) {
                where = a[i][j] == 0 ? j : -1;
                if (where >= 0)
                    a[i][j] = 0;
            }
            last_private[i] = where;
        }

#pragma acc parallel num_gangs(4) num_workers(4) vector_length(32)
        {
#pragma acc loop gang worker
            for (int i = 0; i < N; i++) {
                int first = M;
#pragma acc loop vector
                for (int j = 0; j < M; j++)
                    if (a[i][j] == 0 && j < first) /* expect: data-race */
                        first = j;
                first_w[i] = first;
            }
        }
    }
    long s = 0, t = 0, u = 0, v = 0;
    for (int i = 0; i < N; i++) {
        s += last[i];
        t += last_max[i];
        u += last_private[i];
        v += first_w[i];
    }
    printf("last zero: %ld %ld, private: %ld, first zero: %ld\n", s, t, u, v);
    return 0;
}
