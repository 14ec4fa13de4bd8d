// §2.6.5.4: copyout "implies that the data need not be copied to the device memory from the local
// memory, even if those values are used on the accelerator." Reading the device copy before
// writing it reads uninitialised device memory, which `accsim check` reports. (Only "done" is
// printed: the values are not determined.)
#include <stdio.h>
int main(void) {
    int a[8], b[8];
    for (int i = 0; i < 8; i++) a[i] = i;
#pragma acc parallel loop copyout(a) copyout(b)
    for (int i = 0; i < 8; i++) b[i] = a[i] + 1; /* expect: uninit-device-read */
    printf("done\n");
    return 0;
}
