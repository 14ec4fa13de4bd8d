// §2.6.3.1: "When the condition evaluates to nonzero in C or C++ ... the data will be allocated
// and moved as specified." The copy clause brings the device values back at the end.
#include <stdio.h>
int main(void) {
    int a[5] = {1, 2, 3, 4, 5};
    int n = 5;
#pragma acc data copy(a) if(n > 2)
    {
#pragma acc parallel loop present(a)
        for (int i = 0; i < 5; i++) a[i] *= 3;
    }
    printf("%d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]);
    return 0;
}
