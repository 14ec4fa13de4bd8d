// Issue 15 (small heap blocks in slabs): freeing a 16-byte block twice is a double free even when
// another block of its size was made in between (and took its slot), and the other block stays
// intact (C11 7.22.3.3: `free` of a pointer already freed is undefined; accsim reports it).
// expect-exit: 3
// expect-stderr: error[double-free]
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int *p = malloc(4 * sizeof *p);
    if (p == NULL)
        return 1;
    free(p);
    int *q = malloc(4 * sizeof *q);
    if (q == NULL)
        return 1;
    q[3] = 9;
    printf("q %d\n", q[3]);
    free(p); /* expect: double-free */
    free(q);
    return 0;
}
