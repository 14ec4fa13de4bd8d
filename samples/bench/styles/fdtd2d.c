/* fdtd-2d (PolyBench style): the 2-D finite-difference time-domain kernel (Ex, Ey, Hz fields).
 *
 * Benchmark suite of issue 15: heap fields through `double (*)[NY]` pointers, four loop nests
 * per time step (a boundary row, two field updates, the Hz update) in one data region, the
 * time step's source value read from a host array copied in. -DN=... sets both sides,
 * -DTMAX=... the time steps.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1000
#endif
#define NX N
#define NY N
#ifndef TMAX
#define TMAX 80
#endif

int main(void)
{
    double (*ex)[NY] = malloc(sizeof(double[NX][NY]));
    double (*ey)[NY] = malloc(sizeof(double[NX][NY]));
    double (*hz)[NY] = malloc(sizeof(double[NX][NY]));
    double *fict = malloc(sizeof(double) * TMAX);
    if (!ex || !ey || !hz || !fict) {
        fprintf(stderr, "fdtd-2d: out of memory\n");
        return 1;
    }
    for (int t = 0; t < TMAX; t++)
        fict[t] = (double)t;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = ((double)i * (j + 1)) / NX;
            ey[i][j] = ((double)i * (j + 2)) / NY;
            hz[i][j] = ((double)i * (j + 3)) / NX;
        }
#pragma acc data copy(ex[0:NX], ey[0:NX], hz[0:NX]) copyin(fict[0:TMAX])
    for (int t = 0; t < TMAX; t++) {
#pragma acc parallel loop
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
#pragma acc parallel loop collapse(2)
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma acc parallel loop collapse(2)
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma acc parallel loop collapse(2)
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
    double sum = 0.0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            sum += ex[i][j] + ey[i][j] + hz[i][j];
    printf("fdtd-2d n=%d steps=%d checksum=%.12e hz[4][4]=%.12e\n", N, TMAX, sum, hz[4][4]);
    free(ex);
    free(ey);
    free(hz);
    free(fict);
    return 0;
}
