// expect-exit: 3
// expect-stderr: acc_free
// §3.2.16 with §3.2.25: acc_free frees device memory "returned by a call to acc_malloc"; memory
// still mapped to host data by acc_map_data is in use by that mapping until acc_unmap_data, and
// freeing it under the mapping is an error (libgomp stops the same way).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static int h[8];
    void *d = acc_malloc(sizeof h);
    acc_map_data(h, d, sizeof h);
    acc_free(d); /* expect: still-mapped */
    printf("freed\n");
    return 0;
}
