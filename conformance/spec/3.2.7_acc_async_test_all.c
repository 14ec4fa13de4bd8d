// §3.2.7: "If all outstanding asynchronous operations have completed, the acc_async_test_all
// routine will return with a nonzero value".
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[10], b[10];
#pragma acc parallel loop async(1) copyout(a)
    for (int i = 0; i < 10; i++) a[i] = i;
#pragma acc parallel loop async(2) copyout(b)
    for (int i = 0; i < 10; i++) b[i] = -i;
#pragma acc wait
    printf("all complete: %d\n", acc_async_test_all() != 0);
    while (!acc_async_test_all()) {
    }
    printf("%d %d\n", a[9], b[9]);
    return 0;
}
