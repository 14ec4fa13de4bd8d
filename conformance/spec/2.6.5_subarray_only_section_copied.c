// §2.6.5.2: "If a subarray is specified, then only that subarray of the array needs to be
// copied." The kernel touches only a[2..5]; elements outside the subarray keep the host's values.
#include <stdio.h>
int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = i;
#pragma acc parallel loop copy(a[2:4])
    for (int i = 2; i < 6; i++) a[i] = a[i] * 100;
    for (int i = 0; i < 10; i++) printf("%d ", a[i]);
    printf("\n");
    return 0;
}
