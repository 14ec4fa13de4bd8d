// §3.2.15: acc_malloc allocates "memory on the accelerator device"; on a device with separate
// memory the host may not store through the pointer, which `accsim check` reports. (`run` does
// not stop there; the program only prints "done".)
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int *d = (int *)acc_malloc(4 * sizeof(int));
    d[0] = 1; /* expect: host-deref-device-ptr */
    acc_free(d);
    printf("done\n");
    return 0;
}
