// §2.7.5: "The seq clause specifies that the associated loop or loops are to be executed
// sequentially by the accelerator." A prefix sum (loop-carried dependence) stays correct.
#include <stdio.h>
int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = i + 1;
#pragma acc parallel num_gangs(1) copy(a)
    {
#pragma acc loop seq
        for (int i = 1; i < 10; i++) a[i] += a[i - 1];
    }
    printf("%d %d %d\n", a[0], a[4], a[9]);
    return 0;
}
