/* A loop of main that runs as native code of its own (issue 15, jit/src/loop_entry.rs) reads
 * past its array: the fault is reported at the access, with the interpreter's exit status, after
 * the output of the statements before it. */
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: main_loop_fault.c:18
// check: skip
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 100000;
    double *a = malloc(sizeof(double) * n);
    printf("filling\n");
    double s = 0.0;
    for (int i = 0; i <= n; i++)
        s += a[i] = i;
    printf("never %f\n", s);
    return 0;
}
