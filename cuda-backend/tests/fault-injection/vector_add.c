/* GPU fault injection (issue 14), case `nvrtc`: an ordinary kernel, run with
 * ACCSIM_CUDA_INJECT_FAULT=nvrtc so that the generated CUDA C does not compile. */
#include <stdio.h>

int main(void) {
    float a[1024], b[1024], c[1024];
    for (int i = 0; i < 1024; i++) {
        a[i] = i;
        b[i] = 2 * i;
    }
    #pragma acc parallel loop copyin(a, b) copyout(c)
    for (int i = 0; i < 1024; i++)
        c[i] = a[i] + b[i];
    printf("%g\n", c[1023]);
    return 0;
}
