// Issue 12 (real-code samples): reductions at every level of a 3-D field, as statistics kernels
// write them (§2.5.11, §2.7.11): a gang-level sum and max over planes, worker-level sums per
// plane, vector-level sums per row into a row-norm array, and a construct-level reduction.
#include <stdio.h>
#include <math.h>

#define NZ 8
#define NY 12
#define NX 96

int main(void) {
    static float f[NZ][NY][NX];
    static double rownorm[NZ][NY];
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) f[k][j][i] = (float)((k * 7 + j * 3 + i) % 17) - 8.0f;
    double total = 0.0;
    float peak = -1.0e30f;
    int positives = 0;
#pragma acc parallel num_gangs(4) num_workers(4) vector_length(32) copyin(f) copyout(rownorm) \
    reduction(+:positives)
    {
#pragma acc loop gang reduction(+:total) reduction(max:peak)
        for (int k = 0; k < NZ; k++) {
            double plane = 0.0;
#pragma acc loop worker reduction(+:plane) reduction(max:peak)
            for (int j = 0; j < NY; j++) {
                double sq = 0.0;
                float rowmax = -1.0e30f;
#pragma acc loop vector reduction(+:sq) reduction(max:rowmax)
                for (int i = 0; i < NX; i++) {
                    sq += (double)f[k][j][i] * f[k][j][i];
                    rowmax = fmaxf(rowmax, f[k][j][i]);
                }
                rownorm[k][j] = sqrt(sq);
                plane += sq;
                peak = fmaxf(peak, rowmax);
            }
            total += plane;
        }
#pragma acc loop gang reduction(+:positives)
        for (int k = 0; k < NZ; k++)
            for (int j = 0; j < NY; j++)
                for (int i = 0; i < NX; i++) positives += f[k][j][i] > 0.0f;
    }
    printf("sum of squares = %.1f, max = %.1f, positives = %d\n", total, peak, positives);
    printf("rownorm[0][0] = %.4f, rownorm[7][11] = %.4f\n", rownorm[0][0], rownorm[NZ - 1][NY - 1]);
    return 0;
}
