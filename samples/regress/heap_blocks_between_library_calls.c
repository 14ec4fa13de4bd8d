// Issue 15 (calltree, session 14): after native code's `malloc`, `calloc` and `free`, the span
// table entry of the one block made or freed is set alone, without the general sync of the
// memory's change log; routines that run through the interpreter's call path (`realloc`,
// `strdup`) still bring the table up to date through the log. Blocks made by either path are
// read and written in place right after they are made, a block moved by `realloc` is read
// through its new pointer, and a read through a pointer to a block freed between two `malloc`s
// is reported as a use after free at that read (C11 7.22.3p1: the lifetime of an allocated
// object ends at its deallocation; 7.22.3.5: `realloc` deallocates the old object).
// expect-exit: 3
// expect-stderr: error[use-after-free]
// expect-stderr: long *gone = malloc(4 * sizeof *gone);
// expect-stderr: free(gone);
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fill(long *p, int n, long k)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        p[i] = k * i;
        s += p[i];
    }
    return s;
}

int main(void)
{
    long total = 0;
    for (int r = 0; r < 200; r++) {
        long *a = malloc(3 * sizeof *a);
        long *b = calloc(5, sizeof *b);
        if (a == NULL || b == NULL)
            return 1;
        total += fill(a, 3, r) + b[4];
        long *c = realloc(a, 9 * sizeof *c);
        if (c == NULL)
            return 1;
        total += fill(c, 9, 2) + c[2];
        char *s = strdup("block");
        if (s == NULL)
            return 1;
        long *d = malloc(2 * sizeof *d);
        if (d == NULL)
            return 1;
        total += fill(d, 2, (long)strlen(s)) + fill(b, 5, 1);
        free(s);
        free(c);
        free(d);
        free(b);
    }
    printf("total %ld\n", total);
    long *gone = malloc(4 * sizeof *gone);
    long *kept = malloc(4 * sizeof *kept);
    if (gone == NULL || kept == NULL)
        return 1;
    fill(gone, 4, 3);
    free(gone);
    long *next = malloc(4 * sizeof *next);
    if (next == NULL)
        return 1;
    fill(next, 4, 5);
    fill(kept, 4, 7);
    printf("kept %ld next %ld\n", kept[3], next[3]);
    printf("gone %ld\n", gone[3]); /* expect: use-after-free */
    return 0;
}
