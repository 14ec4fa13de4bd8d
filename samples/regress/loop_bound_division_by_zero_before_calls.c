// expect-exit: 3
// expect-stderr: error[division-by-zero]
// expect-stderr: loop_bound_division_by_zero_before_calls.c:22:25
// check: skip
// Issue 15 (fconst20): the bound of a loop whose body calls a function that is not inlined is
// evaluated once before the loop in native code; a division by zero in it faults where the
// loop's first test would (C11 6.5.5p5: undefined; accsim reports it), after the output before
// the loop, on both engines.
#include <stdio.h>

static int twice(int x)
{
    return x > 100 ? x : twice(x + 1) - 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    int parts = argc - 1, n = 10, sum = 0;
    printf("before\n");
    fflush(stdout);
    for (int i = 0; i < n / parts; i++)
        sum += twice(i);
    printf("after %d\n", sum);
    return 0;
}
