// Issue 16, one machine code for kernels that are the same code up to the order of their
// captures: the two sweeps below (a -> b, then b -> a) outline kernels with the parameters in
// clause order (a, b) both times; the native engine translates the first with its captures
// in the order of their first use (`jit/src/canon.rs`), which is the second's, and both share
// one machine code. The second sweep divides by zero: the fault must name its own line, with
// the arguments passed in the right order (the first sweep's results are printed first).
// expect-exit: 3
// expect-stderr: shared_kernel_swapped_fault.c:34:20
// expect-stderr-not: shared_kernel_swapped_fault.c:28:
#include <stdio.h>

#define N 100000

static int a[N], b[N];

int main(void) {
    int n = N;
    for (int i = 0; i < n; i++) {
        a[i] = 2 * i + 1;
        b[i] = 7;
    }
    int d = 2;
#pragma acc data copy(a, b)
    {
#pragma acc parallel loop present(a, b)
        for (int i = 0; i < n; i++)
            b[i] = a[i] / d;
#pragma acc update host(b)
        printf("%d %d %d\n", b[1], b[n - 1], a[1]);
        fflush(stdout);
        d = 0;
#pragma acc parallel loop present(a, b)
        for (int i = 0; i < n; i++)
            a[i] = b[i] / d; /* expect: division-by-zero */
    }
    printf("%d %d\n", a[1], a[n - 1]);
    return 0;
}
