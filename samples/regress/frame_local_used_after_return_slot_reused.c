// Issue 15 (small blocks in slabs): a pointer kept to a local array of a call that returned
// still reports a use after the call's end when the next call's local of the same size has taken
// the freed slot (C11 6.2.4p2: the object's lifetime ended with its block; the pointer is
// indeterminate), on both engines.
// expect-exit: 3
// expect-stderr: error[use-after-free]
// expect-stderr: local variable `x` of `keep_local` after its function returned
#include <stdio.h>

static int *kept;

static void keep_local(void)
{
    int x[3] = {1, 2, 3};
    kept = x;
}

static int other(void)
{
    int y[3] = {7, 8, 9};
    int *p = y;
    return p[1];
}

int main(void)
{
    keep_local();
    printf("%d\n", other());
    printf("%d\n", kept[0]); /* expect: use-after-free */
    return 0;
}
