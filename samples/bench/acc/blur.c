/* 5 x 5 blur of an N x N image of floats, OpenACC.
 *
 * Benchmark (issue 3): N = 2048, one `parallel loop collapse(2) gang vector` over the interior in a
 * data region. The kernel is the binomial [1 4 6 4 1] / 16 in both directions (weights
 * k[di] * k[dj], exact in float); each output pixel sums its 25 products in a fixed order, so
 * plain/blur.c prints the same line. The two-pixel border is set on the host and kept (`copy`).
 * Sizes: -DN=... (at least 5). -DBENCH_TIMING prints the blur time on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#ifdef BENCH_TIMING
#include <time.h>
#endif

#ifndef N
#define N 2048
#endif

#ifdef BENCH_TIMING
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif

int main(void)
{
    const int n = N;
    float *in = malloc(sizeof(float) * (size_t)n * (size_t)n);
    float *out = malloc(sizeof(float) * (size_t)n * (size_t)n);
    if (in == NULL || out == NULL) {
        fprintf(stderr, "blur: out of memory\n");
        return 1;
    }

    const float k[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
    float w[25];
    for (int di = 0; di < 5; di++)
        for (int dj = 0; dj < 5; dj++)
            w[di * 5 + dj] = k[di] * k[dj] / 256.0f;

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            in[i * n + j] = (float)((i * 7 + j * 13) % 256) / 255.0f;
    /* The border keeps the input values. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i < 2 || i >= n - 2 || j < 2 || j >= n - 2)
                out[i * n + j] = in[i * n + j];

#ifdef BENCH_TIMING
    double t0 = now_seconds();
#endif
#pragma acc data copyin(in[0:n*n], w[0:25]) copy(out[0:n*n])
    {
#pragma acc parallel loop collapse(2) gang vector present(in[0:n*n], w[0:25], out[0:n*n])
        for (int i = 2; i < n - 2; i++) {
            for (int j = 2; j < n - 2; j++) {
                float s = 0.0f;
                for (int di = 0; di < 5; di++)
                    for (int dj = 0; dj < 5; dj++)
                        s += w[di * 5 + dj] * in[(i + di - 2) * n + (j + dj - 2)];
                out[i * n + j] = s;
            }
        }
    }
#ifdef BENCH_TIMING
    fprintf(stderr, "blur: %dx%d in %.6f s\n", n, n, now_seconds() - t0);
#endif

    double sum = 0.0, weighted = 0.0;
    for (int i = 0; i < n * n; i++) {
        sum += (double)out[i];
        weighted += (double)out[i] * (double)(i % 7 + 1);
    }
    printf("blur n=%d sum=%.10e weighted=%.10e out[mid]=%.9e\n", n, sum, weighted,
           (double)out[(n / 2) * n + n / 2]);

    free(in);
    free(out);
    return 0;
}
