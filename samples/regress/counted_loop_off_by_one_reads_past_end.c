// Issue 15 (native engine, bounds checked once at loop entry): a counted loop whose last
// iteration reads one element past the end of a heap array (`<=` for `<`) must print what the
// iterations before it printed and fault at the read, at its own iteration, on both engines.
// The native engine checks the first and last address of the loop's affine accesses at entry;
// here the check fails, and the loop runs with a check per access, so the fault is the one the
// interpreter reports (C11 §6.5.6p8: reading past the array is undefined; accsim stops there).
// A second loop, in bounds, walks the same array backwards with an `unsigned` counter.
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: counted_loop_off_by_one_reads_past_end.c:30:
// check: skip
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 1000;
    double *a = malloc(n * sizeof *a);
    if (!a)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = 0.5 * i;
    double back = 0.0;
    for (unsigned k = n; k > 0; k--)
        back += a[k - 1];
    printf("backwards %.1f\n", back);
    fflush(stdout);
    double sum = 0.0;
    for (int i = 0; i <= n; i++)
        sum += a[i];
    printf("sum %.1f\n", sum);
    free(a);
    return 0;
}
