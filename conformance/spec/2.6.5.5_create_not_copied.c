// §2.6.5.5: create: "No data in this clause will be copied between the local and device
// memories." A scratch array computed on the device (one gang, so the second loop sees
// the first one's results) leaves the host array as it was.
#include <stdio.h>
int main(void) {
    int tmp[6] = {9, 9, 9, 9, 9, 9};
    int out[6];
#pragma acc parallel num_gangs(1) copyout(out) create(tmp)
    {
#pragma acc loop
        for (int i = 0; i < 6; i++) tmp[i] = i * i;
#pragma acc loop
        for (int i = 0; i < 6; i++) out[i] = tmp[i] + 1;
    }
    printf("out: %d %d  tmp: %d %d\n", out[0], out[5], tmp[0], tmp[5]); /* expect: stale-host-read */
    return 0;
}
