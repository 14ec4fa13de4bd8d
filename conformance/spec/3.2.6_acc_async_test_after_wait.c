// §3.2.6: "If that value appeared in one or more async clauses, and all such asynchronous
// operations have completed, the acc_async_test routine will return with a nonzero value".
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[64];
#pragma acc parallel loop async(3) copyout(a)
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma acc wait(3)
    printf("complete after wait: %d\n", acc_async_test(3) != 0);
    printf("a[63] = %d\n", a[63]);
    return 0;
}
