// Issue 15/16, one machine code for kernels that are the same code: the two loops below are the
// same kernel up to their source lines, so the native engine generates their code once and
// shares it (`jit/src/shared.rs`). The second launch divides by zero, and the fault must name
// the second loop's line, not the first's.
// expect-exit: 3
// expect-stderr: shared_kernel_fault_second.c:29:
// expect-stderr-not: shared_kernel_fault_second.c:23:
#include <stdio.h>

#define N 100000

static int a[N], b[N];

int main(void) {
    int n = N;
    for (int i = 0; i < n; i++) {
        a[i] = i + 1;
        b[i] = 0;
    }
    int d = 2;
#pragma acc parallel loop copyin(a) copy(b)
    for (int i = 0; i < n; i++)
        b[i] = a[i] / d;
    printf("%d %d\n", b[1], b[n - 1]);
    fflush(stdout);
    d = 0;
#pragma acc parallel loop copyin(a) copy(b)
    for (int i = 0; i < n; i++)
        b[i] = a[i] / d; /* expect: division-by-zero */
    printf("%d %d\n", b[1], b[n - 1]);
    return 0;
}
