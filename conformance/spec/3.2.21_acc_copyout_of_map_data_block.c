// expect-exit: 3
// expect-stderr: acc_copyout
// §3.2.21: acc_copyout "copies data from device memory to the corresponding local memory, then
// deallocates that memory from the accelerator": it ends a lifetime the runtime began (acc_copyin,
// acc_create, enter data). Device memory the program mapped with acc_map_data (§3.2.25) is the
// program's: only acc_unmap_data ends that mapping.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static int h[8];
    void *d = acc_malloc(sizeof h);
    acc_map_data(h, d, sizeof h);
    acc_copyout(h, sizeof h); /* expect: not-map-data */
    printf("copied out\n");
    return 0;
}
