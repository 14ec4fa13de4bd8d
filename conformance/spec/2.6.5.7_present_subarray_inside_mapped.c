// §2.6.5.7: "The present clause specifies that variables or arrays in the var-list are already
// present in the accelerator memory due to data regions or data lifetimes that contain the
// construct". A subarray inside the mapped one is present; the kernel updates the shared copy.
#include <stdio.h>
int main(void) {
    int a[20];
    for (int i = 0; i < 20; i++) a[i] = i;
#pragma acc data copy(a)
    {
#pragma acc parallel loop present(a[5:10])
        for (int i = 5; i < 15; i++) a[i] = -a[i];
    }
    printf("%d %d %d %d\n", a[4], a[5], a[14], a[15]);
    return 0;
}
