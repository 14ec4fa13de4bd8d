// §2.13.1: "An async clause with the argument value acc_async_noval will behave the same as if
// the async clause had no argument."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[8];
#pragma acc parallel loop async(acc_async_noval) copyout(a)
    for (int i = 0; i < 8; i++) a[i] = 3 * i;
#pragma acc wait
    printf("%d %d\n", a[1], a[7]);
    return 0;
}
