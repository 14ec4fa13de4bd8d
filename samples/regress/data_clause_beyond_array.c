// Issue 14, untrusted programs: a data clause whose subarray reaches far beyond its array
// (`create(a[0:1<<20])` on a 16-byte array) passed silently and made a device copy of that
// size. §2.7.1: a subarray names elements of the array; the clause is now an out-of-bounds
// error at the clause, for every clause (here a length in bytes where elements were meant).
// expect-exit: 3
// expect-stderr: error[out-of-bounds]
// expect-stderr: `buf[0:n * sizeof(double)]` in a `create` clause maps bytes 0..32768 of a heap block (4096 bytes)
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 512;
    double *buf = malloc(n * sizeof(double));
    double total = 0.0;
#pragma acc data create(buf[0:n * sizeof(double)]) /* expect: out-of-bounds */
    {
#pragma acc parallel loop present(buf)
        for (int i = 0; i < n; i++)
            buf[i] = 1.0 / (i + 1);
#pragma acc parallel loop present(buf) reduction(+:total)
        for (int i = 0; i < n; i++)
            total += buf[i];
    }
    printf("%f\n", total);
    free(buf);
    return 0;
}
