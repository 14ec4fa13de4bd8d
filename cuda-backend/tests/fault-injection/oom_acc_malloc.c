/* GPU fault injection (issue 14), case `oom`: a device allocation larger than any card
 * (4 TiB): cuMemAlloc fails with CUDA_ERROR_OUT_OF_MEMORY. */
#include <stdio.h>
#include <openacc.h>

int main(void) {
    size_t n = (size_t)1 << 42;
    double *d = acc_malloc(n);
    printf("acc_malloc returned %p\n", (void *)d);
    return 0;
}
