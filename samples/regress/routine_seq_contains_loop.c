// Issue 12, compile-time errors: a `routine seq` procedure may not contain a gang, worker or
// vector loop (§2.12.1.4), and a `routine vector` one no gang or worker loop (§2.12.1.3). gcc
// rejects both ("loop uses OpenACC parallelism disallowed by containing routine"). Both sites:
// the loop and the routine directive.
// expect-exit: 2
// expect-stderr: a `vector` loop in `routine seq` function `axpy`
// expect-stderr: routine_seq_contains_loop.c:17:13
// expect-stderr: a `worker` loop in `routine vector` function `fill`
// expect-stderr: routine_seq_contains_loop.c:25:13
#include <stdio.h>

#define N 256

#pragma acc routine seq
static void axpy(int n, float a, const float *x, float *y)
{
#pragma acc loop vector /* expect: compile-error */
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

#pragma acc routine vector
static void fill(int n, float v, float *y)
{
#pragma acc loop worker /* expect: compile-error */
    for (int i = 0; i < n; i++)
        y[i] = v;
}

int main(void)
{
    static float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = i;
#pragma acc parallel copyin(x) copyout(y)
    {
        fill(N, 1.0f, y);
        axpy(N, 2.0f, x, y);
    }
    printf("%f\n", y[N - 1]);
    return 0;
}
