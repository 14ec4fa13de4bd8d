// Issue 15 (native engine, small functions translated inline at their calls): a recursion
// whose deepest call is a one-line function (`return` of an expression of its parameters, which
// the native engine translates in place) must hit accsim's call-depth limit at the same call (exit 4) as
// the interpreter does: the inlined call still counts as a call (C11 §5.2.4.1 leaves the depth
// of recursion to the implementation; accsim stops at 100000 nested calls, an error with the
// call's location). Before it, calls of such functions nested three deep, with a constant
// integer division, give what gcc gives.
// expect-exit: 4
// expect-stderr: inlined_leaf_call_at_the_depth_limit.c:23:
// expect-stderr: when calling `half`
// check: skip
#include <stdio.h>

static double half(double x) { return 0.5 * x; }
static double mix(double x, int k) { return half(x) + (double)(k % 7) / 7.0; }
static double twice(double x, int k) { return mix(mix(x, k), k + 1); }

/* Depth 1 is main; each level adds one; the leaf is called at the last level. */
static double down(int n)
{
    if (n > 0)
        return 1.0 + down(n - 1);
    return half(2.0);
}

int main(void)
{
    double s = 0.0;
    for (int i = 0; i < 1000; i++)
        s = twice(s, i);
    printf("twice %.12f\n", s);
    printf("short recursion %.1f\n", down(1000));
    fflush(stdout);
    /* main is at depth 1, down(n) at 2 .. n+2, the leaf at n+3: 99998 puts the leaf's call
       one past the limit. */
    printf("deep %.1f\n", down(99997));
    printf("deeper %.1f\n", down(99998));
    return 0;
}
