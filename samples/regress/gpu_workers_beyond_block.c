// Issue 12 item 14: `run --device cuda` refused a launch of num_workers(100) vector_length(32)
// because 3200 threads exceed a CUDA block (1024), where nvc and gcc run it. §2.5.7 lets the
// program choose the number of workers; no rule ties an iteration to a worker (§2.7.3), so the
// block runs as many rows of workers as it holds, and each row's loop takes the iterations of
// the workers beyond them. Worker-private state (a per-worker reduction copy) and worker-single
// code must stay right for each of those iterations, and so must per-worker barriers (a block
// has 16 named barriers: at most 15 rows of workers whose lanes span several warps).
#include <stdio.h>

#define N 300
#define M 64

static float a[N][M], rowsum[N];
static double colsum[M];

int main(void)
{
    int i, j;
    long hits = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = (float)((i * 7 + j) % 13);
#pragma acc data copyin(a[0:N][0:M]) copyout(rowsum[0:N])
    {
#pragma acc parallel num_gangs(3) num_workers(100) vector_length(32) reduction(+:hits)
        {
#pragma acc loop gang worker
            for (i = 0; i < N; i++) {
                float s = 0.0f;
#pragma acc loop vector reduction(+:s)
                for (j = 0; j < M; j++)
                    s += a[i][j];
                rowsum[i] = s;
                hits += 1;
            }
        }
    }
    /* Workers whose lanes span two warps synchronise by named barriers, one per worker row. */
#pragma acc data copyin(a[0:N][0:M]) copyout(colsum[0:M])
#pragma acc parallel num_gangs(2) num_workers(40) vector_length(64)
    {
#pragma acc loop gang
        for (j = 0; j < M; j++) {
            double c = 0.0;
#pragma acc loop worker reduction(+:c)
            for (i = 0; i < N; i++) {
                double part = 0.0;
                int k;
#pragma acc loop vector reduction(+:part)
                for (k = 0; k < 64; k++)
                    part += (double)a[i][j] * (double)(k % 4);
                c += part;
            }
            colsum[j] = c;
        }
    }
    double u = 0.0;
    for (j = 0; j < M; j++)
        u += colsum[j] * (double)(j + 1);
    printf("column sums: %.1f\n", u);
    float t = 0.0f;
    for (i = 0; i < N; i++)
        t += rowsum[i] * (float)(i % 5);
    printf("rows = %ld, weighted sum = %.1f\n", hits, t);
    return 0;
}
