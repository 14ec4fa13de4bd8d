// §2.6.5: "If the lower bound is missing, zero is used." a[:4] is a[0:4].
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = 1;
#pragma acc data copy(a[:4])
    {
        printf("a[0:4] present: %d\n", acc_is_present(a, 4 * sizeof(int)) != 0);
        printf("a[4] present: %d\n", acc_is_present(&a[4], sizeof(int)) != 0);
#pragma acc parallel loop present(a[0:4])
        for (int i = 0; i < 4; i++) a[i] = 9;
    }
    printf("%d %d %d\n", a[0], a[3], a[4]);
    return 0;
}
