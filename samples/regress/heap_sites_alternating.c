// Issue 15 (a native heap routine remembers the last call site it looked up): `malloc` and
// `free` called in turn from several sites of one function, thousands of times, then a double
// free at a site not called before. The error names that `free`'s own line, the block's
// `malloc` site and the site of its first `free` (C11 7.22.3.3), each call's own site, not
// the one looked up before it.
// expect-exit: 3
// expect-stderr: error[double-free]
// expect-stderr: free(prev);
// expect-stderr: int *b = malloc(2 * sizeof *b);
// expect-stderr: free(b); /* first */
#include <stdio.h>
#include <stdlib.h>

static long sum;

static int *churn(int i, int *prev)
{
    int *a = malloc(sizeof *a);
    int *b = malloc(2 * sizeof *b);
    if (a == NULL || b == NULL)
        exit(1);
    *a = i;
    b[1] = 2 * i;
    sum += *a + b[1];
    free(a);
    if (prev != NULL && i == 4999) {
        printf("sum %ld\n", sum);
        free(prev); /* expect: double-free */
    }
    free(b); /* first */
    return b;
}

int main(void)
{
    int *last = NULL;
    for (int i = 0; i < 5000; i++)
        last = churn(i, last);
    return 0;
}
