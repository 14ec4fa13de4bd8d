// Issue 12 item 14 (GPU): a store that single code makes to a variable the threads share, read by
// every thread before the next partitioned loop. Code outside partitioned loops runs redundantly
// in every thread on the GPU, one thread storing (§1.2: gang-redundant and worker-single modes);
// the other threads must see the stored value when they compute the bounds of the vector loop
// that follows (§2.7.3: the loop's iterations are those of the C `for`). PGI 1.3's triangular
// `region` (samples/pgi13/09_seed_examples.c) summed 606 instead of 726 on the GPU: the counter
// of its sequential loop lives in memory in a `kernels` region, and each thread read it before
// the first thread had stored it. Variants: a `kernels` sequential loop around a triangular
// vector loop; a worker loop with a sequential loop whose counter bounds a vector loop; a `parallel`
// gang loop whose bound comes from a `routine seq` that writes through a pointer to a local; a
// `routine vector` called per row; and a gang's `firstprivate` copy (§2.5.1) reset for each of
// the gang's rows and read by a `while` condition (V&V `parallel_while_loop.F90` hung on the GPU:
// the first thread reset it for the next row while the others still tested the old value).
#include <stdio.h>
#define N 12
#define B 3
#define R 4

float tri[N][N];
float blocks[B][R][N][N];
float rows[N][N];
float lens[N][N];
double grow[8][N];

#pragma acc routine seq
static void row_length(int row, int *len)
{
    *len = row % 5 + 3;
}

#pragma acc routine vector
static void fill_row(float *row, int len, float value)
{
#pragma acc loop vector
    for (int i = 0; i < len; i++)
        row[i] = value + (float)i;
}

int main(void)
{
    /* 1. A sequential loop in `kernels` around a triangular vector loop. */
#pragma acc kernels copyout(tri)
    {
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++)
                tri[j][i] = 0;
#pragma acc loop seq
        for (int j = 0; j < N; j++)
#pragma acc loop vector
            for (int i = 0; i < j; i++)
                tri[j][i] = (float)(i + j);
    }
    float s = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            s += tri[j][i];
    printf("triangle: %g\n", s);

    /* 2. Gang, worker, then a sequential loop whose counter bounds a vector loop. */
    for (int b = 0; b < B; b++)
        for (int r = 0; r < R; r++)
            for (int j = 0; j < N; j++)
                for (int i = 0; i < N; i++)
                    blocks[b][r][j][i] = 0;
#pragma acc kernels copy(blocks)
    {
#pragma acc loop gang
        for (int b = 0; b < B; b++) {
#pragma acc loop worker
            for (int r = 0; r < R; r++) {
#pragma acc loop seq
                for (int j = 0; j < N; j++) {
#pragma acc loop vector
                    for (int i = 0; i < (j + r < N ? j + r : N); i++)
                        blocks[b][r][j][i] = (float)(i + j + b);
                }
            }
        }
    }
    double sb = 0;
    for (int b = 0; b < B; b++)
        for (int r = 0; r < R; r++)
            for (int j = 0; j < N; j++)
                for (int i = 0; i < N; i++)
                    sb += blocks[b][r][j][i] * (r + 1);
    printf("blocks: %g\n", sb);

    /* 3. `parallel`: a bound that a routine stores through a pointer to a local. */
#pragma acc parallel loop gang vector_length(32) copy(lens)
    for (int j = 0; j < N; j++) {
        int len;
        row_length(j, &len);
#pragma acc loop vector
        for (int i = 0; i < len; i++)
            lens[j][i] = 1.0f;
    }
    float sl = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            sl += lens[j][i] * (float)(j + 1);
    printf("lengths: %g\n", sl);

    /* 4. A `routine vector` per row, its length from the row. */
#pragma acc parallel loop gang vector_length(32) copyout(rows)
    for (int j = 0; j < N; j++) {
#pragma acc loop vector
        for (int i = 0; i < N; i++)
            rows[j][i] = 0;
        fill_row(rows[j], j + 1, (float)j);
    }
    float sr = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            sr += rows[j][i];
    printf("rows: %g\n", sr);

    /* 5. A gang's copy of `avg`, reset per row, tested by a `while` (4 rows per gang). */
    double avg = 0;
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < N; y++)
            grow[x][y] = (double)(x + y + 1) / N;
#pragma acc parallel num_gangs(2) vector_length(32) copy(grow)
    {
#pragma acc loop gang
        for (int x = 0; x < 8; x++) {
            avg = 0.0;
            while (avg < 100.0) {
                avg = 0.0;
#pragma acc loop vector
                for (int y = 0; y < N; y++)
                    grow[x][y] = grow[x][y] * 1.5;
#pragma acc loop vector reduction(+:avg)
                for (int y = 0; y < N; y++)
                    avg += grow[x][y] / N;
            }
        }
    }
    double sg = 0;
    for (int x = 0; x < 8; x++)
        sg += grow[x][0];
    printf("grown: %.6f\n", sg);
    return 0;
}
