// Issue 15 (native engine, compile share): the accesses of a counted loop based on one pointer
// are checked at the loop's entry together (the largest offset of their first and last
// addresses from the allocation's start, for each access size), not one by one. A smoothing
// pass that spreads each element to its neighbours writes `out[i - 1]` and `out[i + 1]` and reads
// a 5-tap window of `in` (two elements longer); its second pass runs one iteration too far (`<=` for `<`), so its last
// `out[i + 1]` is one element past the end (C11 §6.5.6p8: undefined; accsim stops there). The
// entry check fails and the loop runs checked: the fault at that write, at its own iteration,
// with the interpreter's diagnostic, on both engines. The first pass, in bounds (its reads
// reach both ends of `in`), runs the direct version and prints what gcc prints.
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: window_loop_writes_past_the_end.c:28:
// check: skip
#include <stdio.h>
#include <stdlib.h>

static double spread(const double *in, double *out, int last)
{
    double moved = 0.0;
    for (int i = 2; i <= last; i++) {
        double s = 0.0;
        for (int k = -2; k <= 2; k++)
            s += in[i + k] * (3 - (k < 0 ? -k : k));
        out[i - 1] += 0.25 * s;
        moved += s;
        out[i] += 0.5 * s;
        /* The second pass's last iteration writes one element past `out`. */
        out[i + 1] += 0.25 * s;
    }
    return moved;
}

int main(void)
{
    int n = 64;
    /* Two elements of margin after `in`: the window never reads past it. */
    double *in = malloc(sizeof(double) * (n + 2));
    double *out = malloc(sizeof(double) * n);
    if (!in || !out)
        return 1;
    for (int i = 0; i < n + 2; i++)
        in[i] = (i * 5) % 11;
    for (int i = 0; i < n; i++)
        out[i] = 0.0;
    double moved = spread(in, out, n - 3);
    printf("in bounds: moved %.2f, out[1] %.2f, out[%d] %.2f\n", moved, out[1], n - 2, out[n - 2]);
    fflush(stdout);
    moved = spread(in, out, n - 1);
    printf("not reached: %.2f\n", moved);
    free(in);
    free(out);
    return 0;
}
