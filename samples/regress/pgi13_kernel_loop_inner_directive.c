// Issue 17, PGI Accelerator 1.3 §2.4.3 (the `kernel` clause) restrictions: "Loop mapping
// directives must not appear on any loop contained within the kernel loop" (its inner loops run
// sequentially on the accelerator). A diagnostic at the inner directive, naming the kernel loop.
// expect-exit: 2
// expect-stderr: a loop mapping directive inside the `kernel` loop at line 16
// expect-stderr: pgi13_kernel_loop_inner_directive.c:19
// check: skip
#include <stdio.h>

int main(void) {
    static float a[64][32], rowsum[64];
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 32; j++) a[i][j] = i + j;
#pragma acc region copyin(a) copyout(rowsum)
    {
#pragma acc for kernel parallel
        for (int i = 0; i < 64; i++) {
            float s = 0;
#pragma acc for vector(32)
            for (int j = 0; j < 32; j++) s += a[i][j];
            rowsum[i] = s;
        }
    }
    printf("%g\n", rowsum[63]);
    return 0;
}
