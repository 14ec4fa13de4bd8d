// Issue 15 (small heap blocks in slabs): a 20-byte block sits in a 32-byte slot, but reading its
// byte 20 is still out of bounds: accesses are checked against the block's own size, not the
// slot's (C11 6.5.6p8), on both engines.
// expect-exit: 3
// expect-stderr: error[out-of-bounds]
#include <stdio.h>
#include <stdlib.h>

static int at(const char *s, int i)
{
    return s[i]; /* expect: out-of-bounds */
}

int main(void)
{
    char *s = calloc(20, 1);
    if (s == NULL)
        return 1;
    int total = 0;
    for (int i = 0; i <= 20; i++)
        total += at(s, i);
    printf("%d\n", total);
    free(s);
    return 0;
}
