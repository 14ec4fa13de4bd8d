// Issue 12 item 14: `emit-cuda` refused a store to device memory inside a condition or a `for`
// clause of code that one thread runs (gang-redundant code, or worker-single code inside a worker
// loop): on the GPU every thread of the block evaluates control expressions, so the store cannot
// simply be guarded. Now one thread evaluates the expression and the others take its value after a
// barrier. §1.2: gang-redundant code runs once per gang, worker-single code once per worker.
// Shape of PolyBench's dynprog (anti-diagonal order, so that no two threads of a diagonal depend
// on each other) with its sweep counter kept in device memory, and a per-row pass count.
#include <stdio.h>

#define L 24
#define TSTEPS 3

static double W[L][L], c[L][L];
static int stats[2];
static int passes[L];
static double out_l[1];

int main(void)
{
    int i, j, d;
    for (i = 0; i < L; i++)
        for (j = 0; j < L; j++)
            W[i][j] = (double)((i + 3 * j) % 7) / 7.0;
#pragma acc data copyin(W[0:L][0:L]) copyout(c[0:L][0:L]) copy(stats[0:2], passes[0:L], out_l[0:1])
    {
#pragma acc parallel num_gangs(1) vector_length(32)
        {
            for (stats[0] = 0; stats[0] < TSTEPS; stats[0]++) {
#pragma acc loop vector
                for (i = 0; i < L * L; i++)
                    c[i / L][i % L] = 0.0;
                for (d = 1; d < L; d++) {
#pragma acc loop vector
                    for (i = 0; i < L - d; i++) {
                        int jj = i + d;
                        double s = 0.0;
                        for (int k = i + 1; k < jj; k++)
                            s += c[i][k] + c[k][jj];
                        c[i][jj] = s / (double)d + W[i][jj];
                    }
                }
                out_l[0] += c[0][L - 1];
                if (++stats[1] > TSTEPS)
                    out_l[0] = -1.0;
            }
        }
#pragma acc parallel num_gangs(2) num_workers(4) vector_length(8)
        {
#pragma acc loop gang worker
            for (i = 0; i < L; i++) {
                if ((passes[i] = i % 3) == 0)
                    passes[i] = 10;
#pragma acc loop vector
                for (j = 0; j < L; j++)
                    c[i][j] = W[i][j] * (double)passes[i];
            }
        }
    }
    double s = 0.0;
    for (i = 0; i < L; i++)
        for (j = 0; j < L; j++)
            s += c[i][j];
    printf("out_l = %.6f, sweeps = %d, passes = %d, sum = %.6f\n", out_l[0], stats[0], stats[1], s);
    return 0;
}
