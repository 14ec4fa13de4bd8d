// expect-exit: 3
// §3.2.31: "The acc_memcpy_from_device routine copies bytes of data from the device address in
// src to the local address in dest." A source that is no device address (host memory never
// allocated on the device) is an error.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int src[4] = {1, 2, 3, 4}, dst[4] = {0};
    acc_memcpy_from_device(dst, src, sizeof dst); /* expect: bad-argument */
    printf("%d\n", dst[0]);
    return 0;
}
