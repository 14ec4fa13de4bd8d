// §3.2.26: "A call to this routine ends the data lifetime for the specified host data. The device
// memory is not deallocated." After unmapping, the host data is not present, and the device
// memory still holds what the kernel wrote.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float h[4] = {0, 0, 0, 0};
    float *d = (float *)acc_malloc(sizeof h);
    acc_map_data(h, d, sizeof h);
#pragma acc parallel loop present(h)
    for (int i = 0; i < 4; i++) h[i] = 2.5f * i;
    acc_unmap_data(h);
    printf("present after unmap: %d\n", acc_is_present(h, sizeof h) != 0);
    float back[4];
    acc_memcpy_from_device(back, d, sizeof back);
    printf("%.1f %.1f\n", back[1], back[3]);
    acc_free(d);
    return 0;
}
