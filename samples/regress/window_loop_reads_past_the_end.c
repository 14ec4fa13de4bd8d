// Issue 15 (native engine, compile share): a counted loop holding a small constant loop (a
// 3-tap window, unrolled in the loop's direct version) whose last iteration reads one element
// past the end of a heap array (`<=` for `<`, C11 §6.5.6p8: undefined; accsim stops there).
// The entry check fails, and the loop runs its checked version, where the window stays a loop:
// the output of the iterations before it, then the fault at the read, at its own iteration,
// with the interpreter's diagnostic, on both engines. A first loop over the interior, in bounds,
// runs the direct version.
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: window_loop_reads_past_the_end.c:36:
// check: skip
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 500;
    double *a = malloc(n * sizeof *a);
    double *b = malloc(n * sizeof *b);
    if (!a || !b)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = 0.25 * i;
    for (int i = 1; i < n - 1; i++) {
        double s = 0.0;
        for (int d = -1; d <= 1; d++)
            s += a[i + d] * (2 - d * d);
        b[i] = s;
    }
    printf("interior %.2f %.2f\n", b[1], b[n - 2]);
    fflush(stdout);
    double total = 0.0;
    for (int i = 1; i <= n - 1; i++) {
        double s = 0.0;
        for (int d = -1; d <= 1; d++)
            s += a[i + d];
        total += s;
        if (i % 100 == 0)
            printf("at %d: %.2f\n", i, total);
    }
    printf("total %.2f\n", total);
    free(a);
    free(b);
    return 0;
}
