// Issue 15 (small heap blocks in slabs): a pointer to a freed 24-byte block still reports a use
// after free when a new block of the same size has taken the freed block's slot, and names the
// `malloc` and `free` sites (C11 7.22.3p1: the object's lifetime ended at `free`). The new
// block's bytes are its own: the dangling pointer's id is dead, whatever slot it had.
// expect-exit: 3
// expect-stderr: error[use-after-free]
// expect-stderr: struct pair *old = malloc(sizeof *old);
// expect-stderr: free(old);
#include <stdio.h>
#include <stdlib.h>

struct pair {
    long a, b, c;
};

int main(void)
{
    struct pair *old = malloc(sizeof *old);
    if (old == NULL)
        return 1;
    old->a = 1;
    free(old);
    struct pair *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return 1;
    fresh->a = 42;
    printf("fresh %ld\n", fresh->a);
    printf("old %ld\n", old->a); /* expect: use-after-free */
    free(fresh);
    return 0;
}
