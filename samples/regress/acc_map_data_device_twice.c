// Issue 12, errors runtimes catch: `acc_map_data` of a device address already mapped to other
// host data (§3.2.25: "undefined to call acc_map_data with a device address that is already
// mapped to host data"; libgomp stops: "device address ... is already mapped"). Both arrays
// would share one device copy.
// expect-exit: 3
// expect-stderr: error[already-mapped]
// expect-stderr: acc_map_data_device_twice.c:18:5
#include <stdlib.h>
#include <openacc.h>

#define N 1024

int main(void) {
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    double *buf = acc_malloc(N * sizeof *buf);
    acc_map_data(x, buf, N * sizeof *x);
    /* meant to be a second acc_malloc */
    acc_map_data(y, buf, N * sizeof *y); /* expect: already-mapped */
    acc_unmap_data(y);
    acc_unmap_data(x);
    acc_free(buf);
    free(x);
    free(y);
    return 0;
}
