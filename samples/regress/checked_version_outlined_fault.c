// Issue 15 (native engine, compile time): a fault in a loop's checked version made on first
// need (jit/src/outline.rs) is reported at the access, with the run's output before it, in
// both engines: `a[i]` reads one element past the block at i = n, a guard keeps the entry
// checks failing from the first iteration on (`a[i - 1]` at i = 0).
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: 18:14
// check: skip
#include <stdio.h>
#include <stdlib.h>

static long sum_past(const int *a, int n)
{
    long t = 0;
    for (int i = 0; i <= n; i++) {
        if (i > 0)
            t += a[i - 1];
        t += a[i] * 2;
    }
    return t;
}

int main(void)
{
    int n = 4;
    int *a = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
        a[i] = i + 1;
    printf("%ld\n", sum_past(a, n - 1));
    printf("%ld\n", sum_past(a, n));
    free(a);
    return 0;
}
