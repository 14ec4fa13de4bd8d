// Issue 12 item 11: a loop that calls a `routine vector` procedure must leave the vector level to
// the routine (§2.12.1.3: "a call to this procedure must appear in code that is executed in
// vector-single mode"). accsim scheduled the calling `parallel loop` (no level given) as
// `gang vector`, so every lane ran the routine's whole vector loop (the illegal schedule real
// compilers never choose; `check` could report lane races it caused). The same for a `routine
// worker` called from a `parallel loop`: its loop must be gang only (§2.12.1.2). `accsim info`
// shows the schedules (simulator/tests/acc_samples.rs checks them).
#include <stdio.h>
#include <stdlib.h>

#define ROWS 16
#define COLS 100

#pragma acc routine vector
void scale_row(float *restrict row, int n, float f)
{
#pragma acc loop vector
    for (int i = 0; i < n; i++)
        row[i] = row[i] * f + 1.0f;
}

#pragma acc routine worker
void smooth_rows(float *restrict m, int rows, int n)
{
#pragma acc loop worker
    for (int r = 0; r < rows; r++)
        scale_row(m + r * n, n, 0.5f);
}

int main(void)
{
    float *m = malloc(ROWS * COLS * sizeof(float));
    float grid[4][ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++)
        m[i] = (float)(i % 7);
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < ROWS * COLS; i++)
            grid[b][i] = (float)b;

#pragma acc parallel loop copy(m[0:ROWS*COLS])
    for (int r = 0; r < ROWS; r++)
        scale_row(&m[r * COLS], COLS, 2.0f);

#pragma acc parallel loop copy(grid)
    for (int b = 0; b < 4; b++)
        smooth_rows(grid[b], ROWS, COLS);

    double sum = 0.0;
    for (int i = 0; i < ROWS * COLS; i++)
        sum += m[i];
    double gsum = 0.0;
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < ROWS * COLS; i++)
            gsum += grid[b][i];
    printf("sum %.1f grid %.1f\n", sum, gsum);
    free(m);
    return 0;
}
