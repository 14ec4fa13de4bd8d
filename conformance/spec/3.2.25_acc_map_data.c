// §3.2.25: acc_map_data is "similar to an enter data directive with a create clause, except
// instead of allocating new device memory ... the device address to use for the data lifetime is
// specified as an argument ... When the host data appears in a data clause, the specified device
// memory will be used." (Arguments in OpenACC 2.0 final and nvc order: host, device, bytes.)
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int h[8];
    int *d = (int *)acc_malloc(sizeof h);
    acc_map_data(h, d, sizeof h);
    printf("mapped: %d, device address: %d\n", acc_is_present(h, sizeof h) != 0, acc_deviceptr(h) == (void *)d);
#pragma acc parallel loop present(h)
    for (int i = 0; i < 8; i++) h[i] = i * i;
    int back[8];
    acc_memcpy_from_device(back, d, sizeof back);
    printf("%d %d %d\n", back[1], back[3], back[7]);
    acc_unmap_data(h);
    acc_free(d);
    return 0;
}
