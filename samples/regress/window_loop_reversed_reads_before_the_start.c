// Issue 15 (native engine, compile share): a counted loop's accesses that differ in one integer
// constant (a window unrolled from a small constant loop) are checked at the loop's entry by
// the two with the smallest and the largest constant; the others lie between them. Here the
// window runs backwards through the array (`in[n - 1 - (i + k)]`: the larger the constant, the
// lower the address) and is scaled by a multiplication, so the access with the largest constant
// is the lowest. The second pass starts one element too early and its last iteration reads
// before the start of `in` (C11 §6.5.6p8: undefined; accsim stops there): the entry check fails
// and the loop runs checked, with the fault at that read, at its own iteration, with the
// interpreter's diagnostic. The first pass, in bounds, runs the direct version and prints what
// gcc prints.
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: window_loop_reversed_reads_before_the_start.c:24:
// check: skip
#include <stdio.h>
#include <stdlib.h>

static double reversed_window(const int *in, double *out, int n, int first, int last)
{
    double total = 0.0;
    for (int i = first; i < last; i++) {
        int s = 0;
        for (int k = 0; k < 4; k++)
            s += (k + 1) * in[n - 1 - 2 * (i + k)];
        out[i] = s;
        total += s;
    }
    return total;
}

int main(void)
{
    int n = 200;
    int *in = malloc(sizeof(int) * n);
    double *out = malloc(sizeof(double) * n);
    if (!in || !out)
        return 1;
    for (int i = 0; i < n; i++)
        in[i] = (i * 7) % 23 - 11;
    for (int i = 0; i < n; i++)
        out[i] = 0.0;
    /* n - 1 - 2 * (i + 3) >= 0 while i <= 96. */
    double total = reversed_window(in, out, n, 0, 97);
    printf("in bounds: total %.1f, out[0] %.1f, out[96] %.1f\n", total, out[0], out[96]);
    fflush(stdout);
    total = reversed_window(in, out, n, 10, 98);
    printf("not reached: %.1f\n", total);
    free(in);
    free(out);
    return 0;
}
