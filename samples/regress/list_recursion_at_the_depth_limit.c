// Issue 15 (session 16, tsum19): native functions take their call depth in a register, no longer
// from the context; a recursion over a heap list (members read through one span-table lookup a
// node) still stops at accsim's call-depth limit at the same call, with the interpreter's
// message and exit status (C leaves the depth of recursion to the implementation, C11 5.2.4.1).
// The first walk stays one call short of the limit.
// expect-exit: 4
// expect-stderr: calls nested 100000 deep when calling `length`
// check: skip
#include <stdio.h>
#include <stdlib.h>

struct cell {
    long value;
    struct cell *next;
};

static long length(const struct cell *c)
{
    if (c == NULL)
        return 0;
    return c->value + length(c->next);
}

static struct cell *list(long n)
{
    struct cell *head = NULL;
    for (long i = 0; i < n; i++) {
        struct cell *c = malloc(sizeof *c);
        if (c == NULL)
            exit(1);
        c->value = 1;
        c->next = head;
        head = c;
    }
    return head;
}

int main(void)
{
    printf("%ld\n", length(list(99998)));
    printf("%ld\n", length(list(99999)));
    return 0;
}
