// §2.6.4.2/§2.13.1: exit data with async: the copy-out is queued on queue 3 after the kernel on
// the same queue; the host reads after acc_wait (§3.2.8).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    long v[32];
    for (int i = 0; i < 32; i++) v[i] = i;
#pragma acc enter data copyin(v)
#pragma acc parallel loop present(v) async(3)
    for (int i = 0; i < 32; i++) v[i] = v[i] * v[i];
#pragma acc exit data copyout(v) async(3)
    acc_wait(3);
    printf("%ld %ld\n", v[5], v[31]);
    return 0;
}
