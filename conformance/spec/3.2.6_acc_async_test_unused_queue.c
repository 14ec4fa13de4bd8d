// §3.2.6: "If that value appeared in one or more async clauses, and all such asynchronous
// operations have completed, the acc_async_test routine will return with a nonzero value". A
// queue whose only kernel was waited for is idle; one that no async clause named has nothing
// outstanding either.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static int a[16];
#pragma acc parallel loop copyout(a) async(4)
    for (int i = 0; i < 16; i++) a[i] = i;
#pragma acc wait(4)
    printf("queue 4 idle: %d, queue 9 idle: %d, a[15] = %d\n", acc_async_test(4) != 0, acc_async_test(9) != 0, a[15]);
    return 0;
}
