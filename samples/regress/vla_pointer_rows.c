// Issue 12 (variable-length arrays): a matrix allocated as `float (*M)[cols] = malloc(...)`,
// the usual C99 way to get a 2-D array whose size is known at run time, kept on the device by a
// data construct (§2.6.3) with the subarray `M[0:rows][0:cols]` (§2.6.5), reached in the
// compute constructs through `present` (§2.6.5.1), and part of it brought back early with
// `update host(M[1:2][0:cols])` (§2.11.1): those two rows reach the host, exactly them.
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rows = 5, cols = argc > 1 ? atoi(argv[1]) : 7;
    float (*M)[cols] = malloc(rows * sizeof *M);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) M[i][j] = -1.0f;
#pragma acc data copy(M[0:rows][0:cols])
    {
#pragma acc parallel loop present(M[0:rows][0:cols])
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) M[i][j] = (float)(10 * i + j);
#pragma acc update host(M[1:2][0:cols])
        printf("during: %.0f %.0f %.0f\n", M[1][0], M[1][cols - 1], M[2][0]);
#pragma acc parallel loop present(M[0:rows][0:cols])
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) M[i][j] *= 2.0f;
    }
    printf("after: %.0f %.0f %.0f %.0f\n", M[0][cols - 1], M[1][cols - 1], M[2][0], M[rows - 1][cols - 1]);
    free(M);
    return 0;
}
