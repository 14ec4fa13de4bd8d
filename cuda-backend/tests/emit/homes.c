/* Where kernel locals live on the GPU (cuda-backend/src/liveness.rs): a register of each thread
   unless a value flows between threads through the local. Not a program to run for its output:
   kernels 2 to 4 are racy on purpose (a value left by whichever lane ran last). */
#include <stdio.h>

#define N 64

int main(void) {
    static int a[N][N], b[N], c[N];
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            a[i][j] = i + j;
    /* 1. A counter of a sequential loop in gang-redundant code and of a vector loop: no value
       flows from the vector loop, so `i` and `j` are registers. */
#pragma acc parallel num_gangs(1) vector_length(32) copyin(a) copyout(b)
    {
        int reused;
        for (reused = 0; reused < N; reused++)
            b[reused] = 0;
#pragma acc loop vector
        for (reused = 0; reused < N; reused++)
            b[reused] += a[reused][0];
    }
    /* 2. A value left by the vector loop, read after it: shared. */
#pragma acc parallel num_gangs(1) vector_length(32) copyin(a) copyout(c)
    {
        int left = 0, k;
#pragma acc loop vector
        for (k = 0; k < N; k++)
            left = a[k][1];
        c[0] = left;
    }
    /* 3. Read by each lane before it writes it: shared. */
#pragma acc parallel num_gangs(1) vector_length(32) copyin(a) copyout(c)
    {
        int carried = 1, k;
#pragma acc loop vector
        for (k = 0; k < N; k++) {
            c[k] = carried;
            carried = a[k][2];
        }
    }
    /* 4. Left by the vector loop, read in the next round of an enclosing sequential loop: shared. */
#pragma acc parallel num_gangs(1) vector_length(32) copyin(a) copyout(c)
    {
        int round_value = 0, t, k;
        for (t = 0; t < 4; t++) {
            c[t] = round_value;
#pragma acc loop vector
            for (k = 0; k < N; k++)
                round_value = a[k][t];
        }
    }
    printf("%d %d\n", b[5], c[0]);
    return 0;
}
