// Issue 17: a PGI Accelerator 1.3 directive in a file read as OpenACC 2.0 (no `region` in it, so
// not read as 1.3 automatically) says which flag reads it, instead of "unknown directive".
// expect-exit: 2
// expect-stderr: PGI Accelerator 1.3 directive: run with --dialect pgi-1.3
// check: skip
#include <stdio.h>

int main(void) {
    float a[100];
#pragma acc kernels copyout(a)
    {
#pragma acc for parallel, vector(32)
        for (int i = 0; i < 100; i++) a[i] = 2 * i;
    }
    printf("%g\n", a[99]);
    return 0;
}
