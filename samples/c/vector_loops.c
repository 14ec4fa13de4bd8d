/* Counted loops whose body stores one element-wise expression: accsim runs them a block of
 * iterations at a time (core/src/exec/compile/vector.rs) where that cannot change the result.
 * Each case prints a checksum; gcc -O0 is the reference. The cases cover the shapes that must
 * fall back to one iteration at a time: a store that a later iteration reads (a recurrence), a
 * store that an earlier iteration read (a shift to the left, in place), overlapping runs of
 * different strides, an int index that wraps, and integer division. */
#include <stdio.h>
#include <stdlib.h>

#define N 1000

static double sum_d(const double *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * (double)(i % 13 + 1);
    return s;
}

static unsigned long sum_i(const int *a, int n)
{
    unsigned long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 3 + (unsigned long)a[i];
    return s;
}

int main(void)
{
    double *a = malloc(sizeof(double) * N);
    double *b = malloc(sizeof(double) * N);
    int *v = malloc(sizeof(int) * N);
    int *w = malloc(sizeof(int) * N);
    float *f = malloc(sizeof(float) * N);
    if (!a || !b || !v || !w || !f)
        return 1;

    /* The counter as a value, converted. */
    for (int i = 0; i < N; i++)
        a[i] = i * 0.25 - 3.0;
    for (int i = 0; i < N; i++)
        v[i] = i * 7 - 500;
    printf("iota %.6f %lu\n", sum_d(a, N), sum_i(v, N));

    /* A stencil into another array, and stride 2 and reversed reads. */
    for (int i = 1; i < N - 1; i++)
        b[i] = 0.25 * (a[i - 1] + 2.0 * a[i] + a[i + 1]);
    b[0] = b[N - 1] = 0.0;
    printf("stencil %.6f\n", sum_d(b, N));
    for (int i = 0; i < N / 2; i++)
        b[i] = a[2 * i] - a[N - 1 - i];
    printf("strided %.6f\n", sum_d(b, N));

    /* In place, each element read and written by its own iteration. */
    for (int i = 0; i < N; i++)
        a[i] = a[i] * a[i] + 1.0;
    printf("inplace %.6f\n", sum_d(a, N));

    /* A recurrence: iteration i reads what iteration i-1 stored. */
    for (int i = 1; i < N; i++)
        a[i] = a[i - 1] * 0.5 + a[i];
    printf("recurrence %.6f\n", sum_d(a, N));

    /* A shift left in place: iteration i reads what iteration i+1 overwrites. */
    for (int i = 0; i < N - 1; i++)
        a[i] = a[i + 1];
    printf("shift %.6f\n", sum_d(a, N));

    /* A shift right in place: iteration i+1 reads what iteration i stored. */
    for (int i = 1; i < N; i++)
        v[i] = v[i - 1] + 1;
    printf("shift-right %lu\n", sum_i(v, N));

    /* Overlapping runs of different strides. */
    for (int i = 0; i < N / 2; i++)
        v[i] = v[2 * i] * 3 + (i & 5);
    printf("overlap %lu\n", sum_i(v, N));

    /* Unsigned arithmetic that wraps, comparisons, shifts, negation, and conversions. */
    for (int i = 0; i < N; i++)
        w[i] = (int)((unsigned)i * 2147483u * 1009u) + (i < 500) - (i >> 2) + -i;
    for (int i = 0; i < N; i++)
        f[i] = (float)w[i] * 0.001f + (float)(i % 7);
    for (int i = 0; i < N; i++)
        v[i] = (int)(f[i] / 3.0f) + (w[i] >= 0);
    printf("ints %lu %lu\n", sum_i(w, N), sum_i(v, N));

    /* A register assigned from the counter first, then used as the index. */
    for (int i = 0; i < N / 4; i++) {
        int j = 4 * i + 3;
        b[j] = a[j - 3] + (double)j;
    }
    printf("derived %.6f\n", sum_d(b, N));

    /* An int index computed in unsigned arithmetic that wraps: i * (2^32 - 1) + 2i is i modulo
     * 2^32, but not as a 64-bit polynomial, so the index is not taken for affine. */
    for (int i = 0; i < 64; i++)
        v[(int)((unsigned)i * 4294967295u + 2u * (unsigned)i)] = i * 3;
    printf("wrap %lu\n", sum_i(v, 64));

    /* Guarded integer division: the divisor is never zero where it is used. */
    for (int i = 0; i < N; i++)
        w[i] = i + 1;
    for (int i = 0; i < N; i++)
        v[i] = 1000000 / w[i] + 1000000 % w[i];
    printf("div %lu\n", sum_i(v, N));

    /* Folds into a register: a dot product through a derived index, an int sum with a
     * division, and a sum that is read in its own body (a different shape: not folded). */
    double dot = 0.0;
    for (int i = 0; i < N / 2; i++) {
        int j = N - 1 - 2 * i;
        dot += a[j] * b[i] - 0.5;
    }
    int isum = 7;
    for (int i = 0; i < N; i++)
        isum += 1000 / w[i] - i;
    double run = 1.0;
    for (int i = 0; i < N; i++)
        run += run * 1e-3 + a[i];
    printf("folds %.6f %d %.6f\n", dot, isum, run);

    free(a);
    free(b);
    free(v);
    free(w);
    free(f);
    return 0;
}
