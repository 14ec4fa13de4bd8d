// Issue 15 (calltree): small `routine seq` functions (OpenACC 2.0 §2.13.1) whose bodies are one
// expression are translated inline by the native engine. In a counted loop whose accesses are
// checked at entry, and in the copies of a short constant loop, the fuel of those calls is
// taken with the loop's when it is at hand and the call depth is far from its limit; otherwise
// each call takes its own unit, so a run that hits `--max-steps` stops where it would. The
// results are C's (C11 6.5.2.2: each call evaluates its arguments, then the body), on the host
// and in a `parallel loop`, with calls in both arms of `?:`, in an `if` and nested three deep.
#include <stdio.h>
#include <stdlib.h>

#define N 5000

#pragma acc routine seq
static double smooth(double x) { return x / (1.0 + (x < 0 ? -x : x)); }
#pragma acc routine seq
static double ramp(double x, int k) { return smooth(x * 0.75 + (double)(k % 5)) - 0.1 * smooth(x - (double)k); }
#pragma acc routine seq
static double pick(double a, double b) { return a > b ? smooth(a) : ramp(b, 2); }

#pragma acc routine seq
static double steps(int i)
{
    double x = (double)(i % 100) / 100.0;
    for (int k = 0; k < 6; k++) {
        x = ramp(x, k + i % 3);
        if (x > 0.5)
            x = pick(x, 0.25);
    }
    return x;
}

int main(void)
{
    double *in = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N), *twice = malloc(sizeof(double) * N);
    if (in == NULL || out == NULL || twice == NULL)
        return 1;
    for (int i = 0; i < N; i++)
        in[i] = (double)(i % 37) / 9.0 - 2.0;
#pragma acc parallel loop copyin(in[0:N]) copyout(out[0:N])
    for (int i = 1; i < N; i++)
        out[i] = pick(in[i], in[i - 1]) + ramp(in[i], i);
#pragma acc parallel loop copyout(twice[0:N])
    for (int i = 0; i < N; i++)
        twice[i] = steps(i);
    double host = 0.0;
    for (int i = 1; i < N; i++)
        host += pick(in[i - 1], in[i]) * smooth(in[i]);
    double a = 0.0, b = 0.0;
    for (int i = 1; i < N; i++) {
        a += out[i];
        b += twice[i];
    }
    printf("kernel %.12e steps %.12e host %.12e\n", a, b, host);
    free(in);
    free(out);
    free(twice);
    return 0;
}
