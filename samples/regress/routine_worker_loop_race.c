// Issue 12 (session 6, item 1): the worker and vector loops of a `routine worker` or `routine
// vector` procedure are shared among the calling gang's workers or lanes (§2.12.1.2–3: the
// routine "contains, may contain, or may call" worker / vector loops, and is called in
// worker-single / vector-single mode). accsim ran such a loop in the calling thread alone, so
// `check` could not see two workers (or lanes) of the routine's loop write the same element:
// here each worker loop stores its running maximum into one shared slot, a race (§1.2: workers
// of a loop do not synchronise). The twin with a `reduction` (`best` below) is race-free.
#include <stdio.h>

#define ROWS 8
#define COLS 64

#pragma acc routine worker
static void row_max_racy(const int *row, int n, int *out)
{
    *out = row[0];
#pragma acc loop worker
    for (int j = 1; j < n; j++)
        if (row[j] > *out) *out = row[j]; /* expect: data-race */
}

#pragma acc routine vector
static int row_max(const int *row, int n)
{
    int best = row[0];
#pragma acc loop vector reduction(max:best)
    for (int j = 1; j < n; j++)
        if (row[j] > best) best = row[j];
    return best;
}

int main(void)
{
    int m[ROWS * COLS], racy[ROWS], good[ROWS];
    for (int i = 0; i < ROWS * COLS; i++) m[i] = (i * 37) % 101;
#pragma acc parallel loop gang num_workers(4) vector_length(8) copyin(m) copyout(racy, good)
    for (int r = 0; r < ROWS; r++) {
        row_max_racy(m + r * COLS, COLS, &racy[r]);
        good[r] = row_max(m + r * COLS, COLS);
    }
    for (int r = 0; r < ROWS; r++) printf("%d ", good[r]);
    printf("\n");
    return 0;
}
