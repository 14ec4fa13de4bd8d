// Issue 15 (each native heap routine remembers its last call site): blocks made at one site
// and freed at another, in turn, thousands of times (every call finds its site remembered),
// then a block freed twice at that same `free`. The error names that `free`'s line as the
// double free and as the first free, and the `malloc` line (C11 7.22.3.3).
// expect-exit: 3
// expect-stderr: error[double-free]
// expect-stderr: int *p = malloc(sizeof(int) * (size_t)(1 + i % 3));
// expect-stderr: freed here
#include <stdio.h>
#include <stdlib.h>

static int *make(int i)
{
    int *p = malloc(sizeof(int) * (size_t)(1 + i % 3));
    if (p == NULL)
        exit(1);
    *p = i;
    return p;
}

static void drop(int *p)
{
    free(p); /* expect: double-free */
}

int main(void)
{
    long sum = 0;
    for (int i = 0; i < 3000; i++) {
        int *p = make(i);
        sum += *p;
        drop(p);
    }
    int *q = make(7);
    drop(q);
    printf("sum %ld\n", sum);
    drop(q);
    return 0;
}
