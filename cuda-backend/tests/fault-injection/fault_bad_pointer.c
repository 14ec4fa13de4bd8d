/* GPU fault injection (issue 14), case `fault-pointer`: a kernel dereferences a pointer that
 * was never a device address (`deviceptr` of a small integer). */
#include <stdio.h>
#include <stdint.h>

int main(void) {
    double *d = (double *)(uintptr_t)4096;
    double s = 0;
    #pragma acc parallel loop deviceptr(d) reduction(+:s)
    for (int i = 0; i < 1024; i++)
        s += d[i];
    printf("%g\n", s);
    return 0;
}
