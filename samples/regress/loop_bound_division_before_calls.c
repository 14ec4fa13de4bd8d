// Issue 15 (fconst20): a loop whose condition's bound divides (`i < (g + 1) * n / parts`, a share
// of a partitioned loop) and whose body calls a function that is not inlined evaluates the bound
// once, before the loop, in native code: the division and its fault checks kept Cranelift from
// moving it, and it ran at every test. The bound is loop-invariant here (no local of it is
// assigned in the body, no memory read); a bound the body changes is evaluated at every test, as
// C says (C11 6.8.5.3). The same results on both engines, on the host and in a `parallel loop`
// (OpenACC 2.0 §2.13.1: a `routine seq` called per iteration).
#include <stdio.h>

#pragma acc routine seq
static int collatz(int x)
{
    int steps = 0;
    while (x != 1 && steps < 50) {
        x = x % 2 ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

#pragma acc routine seq
static int deep(int x, int d)
{
    return d == 0 ? collatz(x) : deep(x + 1, d - 1) - 1;
}

#define N 64

int main(void)
{
    int out[N] = {0};
    int parts = 3, n = N;
    for (int g = 0; g < parts; g++)
        for (int i = g * n / parts; i < (g + 1) * n / parts; i++)
            out[i] = deep(i + 1, 2);
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += out[i] * (i + 1);
    printf("host %ld\n", sum);

    // The bound changes in the body: evaluated at every test.
    int limit = 40, count = 0;
    for (int i = 0; i < limit / 2; i++) {
        count += deep(i, 1) > 0;
        if (i == 5)
            limit -= 10;
    }
    printf("shrinking bound %d\n", count);

    int dev[N] = {0};
#pragma acc parallel loop copyout(dev[0:N])
    for (int g = 0; g < 4; g++)
        for (int i = g * N / 4; i < (g + 1) * N / 4; i++)
            dev[i] = deep(i + 1, 2);
    sum = 0;
    for (int i = 0; i < N; i++)
        sum += dev[i] * (i + 1);
    printf("device %ld\n", sum);
    return 0;
}
