// Issue 15 (native engine, compile time): a runaway loop running in its checked version made
// on first need (jit/src/outline.rs) is stopped by --max-steps, as in the interpreter: the
// guard keeps the entry checks failing (`a[i - 1]` at i = 0), and the fuel the checked version
// burns comes back to its caller's count.
// accsim-flags: --max-steps 2000000
// expect-exit: 4
// expect-stderr: max-steps
// check: skip
#include <stdio.h>

static long spin(const int *a, long n)
{
    long t = 0;
    for (long i = 0; i < n; i++)
        if (i > 0 && i < 5)
            t += a[i - 1];
    return t;
}

int main(void)
{
    int a[4] = {1, 2, 3, 4};
    printf("%ld\n", spin(a, 10));
    printf("%ld\n", spin(a, 1000000000000L));
    return 0;
}
