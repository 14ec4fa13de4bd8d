// expect-exit: 3
// expect-stderr: acc_unmap_data
// §3.2.26: "The acc_unmap_data routine unmaps accelerator device data from the specified host
// data" mapped by acc_map_data; host data that acc_map_data did not map cannot be unmapped
// (here a copyin mapped it: its lifetime is the runtime's, §3.2.17).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static float h[4];
    acc_copyin(h, sizeof h);
    acc_unmap_data(h); /* expect: not-map-data */
    printf("unmapped\n");
    return 0;
}
