// Issue 12 (session 6, item 1): a `gang` loop inside a `routine gang` procedure shares its
// iterations among the gangs that call it. §2.12.1.1: "A call to this procedure must appear in
// code that is executed in gang-redundant mode, and all gangs must execute the call"; the
// routine's gang loop is partitioned across those gangs (§2.7.2: "the iterations of the
// associated loop ... are to be executed in parallel by distributing the iterations among the
// gangs"). accsim ran the whole loop in every gang, so an update (`hist[i] += …`) was applied
// once per gang and `check` reported a race on every element. Here a histogram is scaled and
// shifted in place by a gang routine called from gang-redundant code (a heap array, a struct
// member mapped as a subarray, a `declare`d global), and a routine gang calls a routine worker.
#include <stdio.h>
#include <stdlib.h>

#define N 1000

struct series { int len; double *val; };

double offsets[N];
#pragma acc declare create(offsets)

#pragma acc routine gang
static void accumulate(int *hist, int n, int by)
{
#pragma acc loop gang
    for (int i = 0; i < n; i++)
        hist[i] += by * (i % 7);
}

#pragma acc routine worker
static void shift_row(double *row, int m, double by)
{
#pragma acc loop worker
    for (int j = 0; j < m; j++)
        row[j] += by;
}

#pragma acc routine gang
static void shift_rows(double *val, int len, int rows)
{
    int m = len / rows;
#pragma acc loop gang
    for (int r = 0; r < rows; r++)
        shift_row(val + r * m, m, offsets[r * m]);
}

int main(void)
{
    int *hist = malloc(N * sizeof *hist);
    struct series s = { N, malloc(N * sizeof(double)) };
    if (!hist || !s.val) return 1;
    for (int i = 0; i < N; i++) {
        hist[i] = i;
        s.val[i] = 0.5 * i;
        offsets[i] = i % 3;
    }
#pragma acc update device(offsets)
#pragma acc parallel num_gangs(8) num_workers(4) copy(hist[0:N])
    {
        accumulate(hist, N, 10);
    }
#pragma acc parallel num_gangs(5) num_workers(2) copy(s.val[0:N])
    {
        shift_rows(s.val, s.len, 20);
    }
    long total = 0;
    double sum = 0;
    for (int i = 0; i < N; i++) {
        total += hist[i];
        sum += s.val[i];
    }
    printf("hist[0]=%d hist[6]=%d hist[999]=%d total=%ld\n", hist[0], hist[6], hist[999], total);
    printf("val[0]=%.1f val[50]=%.1f val[999]=%.1f sum=%.1f\n", s.val[0], s.val[50], s.val[999], sum);
    free(hist);
    free(s.val);
    return 0;
}
