// §2.6.4 with §2.6.5.4: an enter data directive may allocate "arrays and subarrays"; at the exit
// data directive the data is "copied from the device to host memory". Only the subarray has a
// device copy: the elements outside it keep their host values.
#include <stdio.h>
int main(void) {
    int a[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
#pragma acc enter data create(a[2:4])
#pragma acc parallel loop present(a[2:4])
    for (int i = 2; i < 6; i++) a[i] = 10 * i;
#pragma acc exit data copyout(a[2:4])
    printf("%d %d %d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    return 0;
}
