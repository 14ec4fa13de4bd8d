// expect-exit: 3
// expect-stderr: out-of-bounds read of 8 bytes at offset 2064
// expect-line: 21
// A loop whose value a constant inner loop accumulates, reading past the end of a malloc'd
// block. accsim runs such loops a block of 256 iterations at a time (NestLoop in
// core/src/exec/compile/vector.rs); the fault falls in the first iteration of the second block
// (i = 256, d = 2: element 258) and must be reported there, at the inner loop's statement.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    double *a = malloc(258 * sizeof *a);
    double *b = malloc(600 * sizeof *b);
    if (!a || !b) return 1;
    for (int i = 0; i < 258; i++) a[i] = i;
    printf("filtering\n");
    fflush(stdout);
    for (int i = 0; i < 600; i++) {
        double s = 0.0;
        for (int d = 0; d < 3; d++)
            s += a[i + d];
        b[i] = s;
    }
    printf("%f\n", b[99]);
    return 0;
}
