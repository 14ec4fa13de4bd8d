/* correlation (PolyBench style): the correlation matrix of M variables over N samples.
 *
 * Benchmark suite of issue 15: means, standard deviations with `sqrt` and a guard for tiny
 * values, centring and scaling in a `collapse(2)` loop, then the upper triangle of the symmetric
 * result, each a `parallel loop` in one data region. -DN=... sets the samples (M = N / 2
 * variables).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1000
#endif
#define M (N / 2)

int main(void)
{
    const int n = N, m = M;
    const double float_n = (double)n, eps = 0.1;
    double (*data)[M] = malloc(sizeof(double[N][M]));
    double (*corr)[M] = malloc(sizeof(double[M][M]));
    double *mean = malloc(sizeof(double) * m), *stddev = malloc(sizeof(double) * m);
    if (!data || !corr || !mean || !stddev) {
        fprintf(stderr, "correlation: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            data[i][j] = (double)((i * j + 3 * i + j) % 101) / 101.0 + 0.001 * i;
#pragma acc data copy(data[0:n][0:m]) copyout(corr[0:m][0:m]) create(mean[0:m], stddev[0:m])
    {
#pragma acc parallel loop
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int i = 0; i < n; i++)
                s += data[i][j];
            mean[j] = s / float_n;
        }
#pragma acc parallel loop
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int i = 0; i < n; i++)
                s += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
            s = sqrt(s / float_n);
            stddev[j] = s <= eps ? 1.0 : s;
        }
#pragma acc parallel loop collapse(2)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++)
                data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) * stddev[j]);
#pragma acc parallel loop
        for (int i = 0; i < m - 1; i++) {
            corr[i][i] = 1.0;
            for (int j = i + 1; j < m; j++) {
                double c = 0.0;
                for (int k = 0; k < n; k++)
                    c += data[k][i] * data[k][j];
                corr[i][j] = c;
                corr[j][i] = c;
            }
        }
    }
    corr[m - 1][m - 1] = 1.0;
    double sum = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            sum += corr[i][j] * (1 + (i + j) % 3);
    printf("correlation n=%d m=%d checksum=%.12e corr[1][2]=%.12e\n", n, m, sum, corr[1][2]);
    free(data);
    free(corr);
    free(mean);
    free(stddev);
    return 0;
}
