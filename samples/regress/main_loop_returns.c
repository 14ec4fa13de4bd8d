/* A `return` in a loop of main that runs as native code of its own (issue 15,
 * jit/src/loop_entry.rs): main returns the loop's word, after its output, with that exit status. */
// expect-exit: 3
#include <stdio.h>
#include <stdlib.h>

int main(void) /* expect: exit-status */
{
    int n = 200000;
    int *v = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
        v[i] = (i * 7919) % 100003;
    long sum = 0;
    for (int i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] == 99999) {
            printf("found at %d, sum %ld\n", i, sum);
            free(v);
            return 3;
        }
    }
    printf("not found\n");
    free(v);
    return 0;
}
