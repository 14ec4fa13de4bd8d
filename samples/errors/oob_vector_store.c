// expect-exit: 3
// expect-stderr: out-of-bounds write of 8 bytes at offset 7200
// expect-line: 18
// A counted loop that stores past the end of a malloc'd block. accsim runs such loops a block
// of iterations at a time; the fault must still be reported at the first store past the end
// (element 900), after the elements before it were written.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    double *a = malloc(900 * sizeof *a);
    double *b = malloc(1000 * sizeof *b);
    if (!a || !b) return 1;
    for (int i = 0; i < 1000; i++) b[i] = i;
    printf("copying\n");
    fflush(stdout);
    for (int i = 0; i < 1000; i++)
        a[i] = b[i] * 2.0;
    printf("%f\n", a[99]);
    return 0;
}
