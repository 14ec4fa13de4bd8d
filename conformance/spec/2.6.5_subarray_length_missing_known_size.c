// §2.6.5: "If the length is missing and the array has known size, the difference between the
// lower bound and the declared size of the array is used". a[3:] of int a[10] is a[3:7].
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = i;
#pragma acc data copy(a[3:])
    {
        printf("a[3:7] present: %d\n", acc_is_present(&a[3], 7 * sizeof(int)) != 0);
        printf("a[2] present: %d\n", acc_is_present(&a[2], sizeof(int)) != 0);
#pragma acc parallel loop present(a[3:7])
        for (int i = 3; i < 10; i++) a[i] = -a[i];
    }
    printf("%d %d %d\n", a[2], a[3], a[9]);
    return 0;
}
