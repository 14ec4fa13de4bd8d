// Issue 16's V&V parallel_firstprivate.F90 showed a C runtime bug (session 7): a `firstprivate`
// or `private` subarray of an *array* (`firstprivate(c[0:8])` on `double c[8]`) was handled as a
// pointer's subarray: each gang got a block of the section and a pointer into it where the kernel
// addresses the array itself, so only c[0] reached the gang's copy. §2.5.10: "a copy is created
// for each parallel gang and initialized with the value of the variable in the encountering
// thread" — each gang sees all of c. Local and global arrays, parallel and kernels.
#include <stdio.h>

double g[8];

int main(void) {
    double c[8], out[16], outg[16];
    for (int y = 0; y < 8; y++) { c[y] = y + 1; g[y] = 10 * (y + 1); }
#pragma acc parallel loop firstprivate(c[0:8]) copyout(out)
    for (int i = 0; i < 16; i++) out[i] = c[i % 8];
#pragma acc parallel loop gang firstprivate(g[2:4]) copyout(outg)
    for (int i = 0; i < 16; i++) outg[i] = g[2 + i % 4];
    for (int i = 0; i < 16; i++) printf("%g %g\n", out[i], outg[i]);
    double total = 0;
#pragma acc parallel firstprivate(c[0:8]) reduction(+:total)
    {
#pragma acc loop gang
        for (int i = 0; i < 8; i++) total += c[i];
    }
    printf("total %g\n", total);
    return 0;
}
