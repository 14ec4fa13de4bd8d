/* GPU fault injection (issue 14), case `fault`: a kernel writes far beyond a device block it
 * was given through `deviceptr` (§2.6.5 leaves such a pointer to the program): the kernel
 * faults with an illegal address. */
#include <stdio.h>
#include <openacc.h>

int main(void) {
    int n = 1 << 16;
    double *d = acc_malloc(16 * sizeof(double));
    long far = (long)1 << 36;
    #pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++)
        d[far + (long)i * 4096] = i;
    printf("not reached\n");
    return 0;
}
