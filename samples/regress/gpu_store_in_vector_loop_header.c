// Issue 12 item 14: a store to device memory in a `for` clause of worker-single code inside a
// vector loop (`for (cnt = 1, sum_diff[j][i][0] = diff[j][i][0]; …)`): on the GPU the workers of
// a gang run that code redundantly (§1.2, worker-single mode) and have no barrier of their own to
// share one evaluation, so the first worker alone stores and every thread takes the assigned
// value, which is the same either way. A statement whose control updates device memory
// (`while (todo[j][i]-- > 0)`) is run by the first worker alone: the other workers' runs of
// worker-single code have no effect. The shape of PolyBench's reg_detect (triangular loops,
// running sums along the third dimension), with two workers per gang so that the guard matters.
#include <stdio.h>

#define MAXGRID 12
#define LENGTH 16

static double sum_tang[MAXGRID][MAXGRID], mean[MAXGRID][MAXGRID];
static double diff[MAXGRID][MAXGRID][LENGTH], sum_diff[MAXGRID][MAXGRID][LENGTH];
static double path[MAXGRID][MAXGRID];
static int todo[MAXGRID][MAXGRID];

int main(void)
{
    int i, j, cnt;
    for (i = 0; i < MAXGRID; i++)
        for (j = 0; j < MAXGRID; j++)
            sum_tang[i][j] = (double)((i + 1) * (j + 1)) / 8.0;
    for (i = 0; i < MAXGRID; i++)
        for (j = 0; j < MAXGRID; j++)
            todo[i][j] = (i + 2 * j) % 4;
#pragma acc data copyin(sum_tang[0:MAXGRID][0:MAXGRID]) create(diff[0:MAXGRID][0:MAXGRID][0:LENGTH], sum_diff[0:MAXGRID][0:MAXGRID][0:LENGTH]) copyout(mean[0:MAXGRID][0:MAXGRID])
    {
#pragma acc parallel loop gang num_workers(2) vector_length(32)
        for (j = 0; j < MAXGRID; j++)
#pragma acc loop vector
            for (i = j; i < MAXGRID; i++)
                for (cnt = 0; cnt < LENGTH; cnt++)
                    diff[j][i][cnt] = sum_tang[j][i] + (double)cnt / 4.0;
#pragma acc parallel loop gang num_workers(2) vector_length(32)
        for (j = 0; j < MAXGRID; j++) {
#pragma acc loop vector
            for (i = j; i < MAXGRID; i++) {
                for (cnt = 1, sum_diff[j][i][0] = diff[j][i][0]; cnt < LENGTH; cnt++)
                    sum_diff[j][i][cnt] = sum_diff[j][i][cnt - 1] + diff[j][i][cnt];
                mean[j][i] = sum_diff[j][i][LENGTH - 1];
            }
        }
#pragma acc parallel loop gang num_workers(2) vector_length(32) copy(todo[0:MAXGRID][0:MAXGRID]) copyout(path[0:MAXGRID][0:MAXGRID])
        for (j = 0; j < MAXGRID; j++) {
#pragma acc loop vector
            for (i = j; i < MAXGRID; i++) {
                double v = 0.0;
                while (todo[j][i]-- > 0)
                    v += mean[j][i] + 1.0;
                path[j][i] = v;
            }
        }
    }
    double s = 0.0;
    for (j = 0; j < MAXGRID; j++)
        for (i = j; i < MAXGRID; i++)
            s += mean[j][i] * (double)(i - j + 1);
    double t = 0.0;
    int left = 0;
    for (j = 0; j < MAXGRID; j++)
        for (i = 0; i < MAXGRID; i++) {
            t += path[j][i];
            left += todo[j][i];
        }
    printf("reg_detect: %.6f, path %.6f, todo %d\n", s, t, left);
    return 0;
}
