// §2.8: "The entries in var-list must be single array elements or simple subarray."
#include <stdio.h>
int main(void) {
    int a[20], b[20];
    for (int i = 0; i < 20; i++) a[i] = 2 * i;
#pragma acc parallel loop copyin(a) copyout(b)
    for (int i = 0; i < 20; i++) {
#pragma acc cache(a[i])
        b[i] = a[i] + 1;
    }
    printf("%d %d\n", b[0], b[19]);
    return 0;
}
