// Issue 15 (native engine, compile time): `abs`, `labs` and `llabs` are translated inline
// (jit/src/translate/calls.rs, `Translator::integer_abs`), as the C library computes them: in
// a loop, in a function translated inline at its call, on `int` and `long` words of every sign,
// and on the most negative values (undefined in C; the shim and glibc give the value itself).
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static int distance(int a, int b)
{
    return abs(a - b);
}

int main(void)
{
    volatile int lo = INT_MIN;
    volatile long llo = LONG_MIN;
    long t = 0;
    for (int i = -40; i <= 40; i++)
        t += abs(i * 3 - 7) + labs((long)i * 100000000000L) % 1000 + distance(i, 5);
    long long u = 0;
    for (long i = -5; i <= 5; i++)
        u += llabs(i * 7LL - 2);
    printf("t=%ld u=%lld\n", t, u);
    printf("min: %d %ld %lld\n", abs(lo), labs(llo), llabs((long long)llo));
    printf("small: %d %d %ld\n", abs(-1), abs(0), labs(-2147483648L));
    return 0;
}
