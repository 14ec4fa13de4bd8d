/* bicg (PolyBench style): s = A^T r and q = A p, the BiCG sub-kernel, repeated REPS times.
 *
 * Benchmark suite of issue 15: global arrays of fixed extent, `kernels` with two independent loops
 * (one reads A by columns, one by rows), -DN=... sets the side, -DREPS=... the repetitions.
 */
#include <stdio.h>

#ifndef N
#define N 2000
#endif
#ifndef REPS
#define REPS 12
#endif

double A[N][N];
double s[N], q[N], p[N], r[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        p[i] = (double)(i % N) / N;
        r[i] = (double)(i % N) / N + 0.5;
        for (int j = 0; j < N; j++)
            A[i][j] = (double)(i * (j + 1) % N) / N;
    }
    double acc = 0.0;
#pragma acc data copyin(A, p, r) create(s, q)
    for (int rep = 0; rep < REPS; rep++) {
#pragma acc kernels
        {
#pragma acc loop independent
            for (int j = 0; j < N; j++) {
                double t = 0.0;
                for (int i = 0; i < N; i++)
                    t += r[i] * A[i][j];
                s[j] = t;
            }
#pragma acc loop independent
            for (int i = 0; i < N; i++) {
                double t = 0.0;
                for (int j = 0; j < N; j++)
                    t += A[i][j] * p[j];
                q[i] = t;
            }
            /* The next repetition's inputs depend on this one's results. */
#pragma acc loop independent
            for (int i = 0; i < N; i++) {
                p[i] = 0.25 * p[i] + 1.0e-5 * q[i];
                r[i] = 0.25 * r[i] + 1.0e-5 * s[i];
            }
        }
#pragma acc update host(s[0:N], q[0:N])
        acc += s[rep % N] - q[(rep * 7) % N];
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += s[i] + 2.0 * q[i];
    printf("bicg n=%d reps=%d checksum=%.12e acc=%.12e\n", N, REPS, sum, acc);
    return 0;
}
