// §2.6.5: "a program that uses and assigns data on the host and uses and assigns the same data on
// the accelerator within a data region without update directives ... may get different answers"
// -- with separate memories the kernel reads the values copied in at the data construct, not the
// host's later ones; `accsim check` reports the stale read.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int r[4];
#pragma acc data copyin(a) copyout(r)
    {
        for (int i = 0; i < 4; i++) a[i] = 100;
#pragma acc parallel loop
        for (int i = 0; i < 4; i++) r[i] = a[i]; /* expect: stale-device-read */
    }
    printf("%d %d %d %d\n", r[0], r[1], r[2], r[3]);
    return 0;
}
