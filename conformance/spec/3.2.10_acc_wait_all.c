// §3.2.10: "The acc_wait_all routine will not return until the all asynchronous operations have
// completed."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[5], b[5], c[5];
#pragma acc parallel loop async(1) copyout(a)
    for (int i = 0; i < 5; i++) a[i] = i;
#pragma acc parallel loop async(2) copyout(b)
    for (int i = 0; i < 5; i++) b[i] = i * i;
#pragma acc kernels loop async copyout(c)
    for (int i = 0; i < 5; i++) c[i] = -i;
    acc_wait_all();
    printf("%d %d %d\n", a[4], b[4], c[4]);
    return 0;
}
