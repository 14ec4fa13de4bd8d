// Issue 15 (native heap routines that set their own span-table entry): after thousands of
// blocks were made and freed in a scrambled order (their slots reused), freeing one of them a
// second time is still a double free, reported at the second `free` with the block's `calloc`
// and first `free` sites (C11 7.22.3.3); the native engine's `free` that sets its entry itself
// finds it as the interpreter does.
// expect-exit: 3
// expect-stderr: error[double-free]
// expect-stderr: free(nodes[1234]);
#include <stdio.h>
#include <stdlib.h>

#define COUNT 6000

int main(void)
{
    static int *nodes[COUNT];
    for (int i = 0; i < COUNT; i++) {
        nodes[i] = malloc(sizeof(int) * (size_t)(1 + i % 9));
        if (nodes[i] == NULL)
            return 1;
        nodes[i][0] = i;
    }
    long sum = 0;
    for (int i = 0; i < COUNT; i += 2) {
        int j = (i * 37) % COUNT;
        sum += nodes[j][0];
        free(nodes[j]);
        nodes[j] = NULL;
    }
    for (int i = 0; i < COUNT; i++)
        if (nodes[i] == NULL) {
            nodes[i] = calloc(1 + i % 5, sizeof(int));
            if (nodes[i] == NULL)
                return 1;
        }
    printf("sum %ld\n", sum);
    free(nodes[1234]);
    free(nodes[1234]); /* expect: double-free */
    return 0;
}
