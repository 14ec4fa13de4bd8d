// §2.6.5.5: create: "the values in the local memory are not needed on the accelerator" -- nothing
// is copied in, so reading the device copy before any write reads uninitialised memory, which
// `accsim check` reports. (Only "done" is printed.)
#include <stdio.h>
int main(void) {
    double w[6] = {1, 2, 3, 4, 5, 6};
    double s = 0;
#pragma acc parallel loop create(w) reduction(+:s)
    for (int i = 0; i < 6; i++) s += w[i]; /* expect: uninit-device-read */
    printf("done\n");
    return 0;
}
