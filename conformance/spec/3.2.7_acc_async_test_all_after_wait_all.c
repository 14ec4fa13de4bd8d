// §3.2.7: "If all outstanding asynchronous operations have completed, the acc_async_test_all
// routine will return with a nonzero value in C". After acc_wait_all (§3.2.10) every queue is
// idle.
#include <stdio.h>
#include <openacc.h>
#define N 64
int main(void) {
    static int a[N], b[N];
#pragma acc data create(a, b)
    {
#pragma acc parallel loop present(a) async(1)
        for (int i = 0; i < N; i++) a[i] = i;
#pragma acc parallel loop present(b) async(2)
        for (int i = 0; i < N; i++) b[i] = 2 * i;
        acc_wait_all();
        printf("all done: %d\n", acc_async_test_all() != 0);
#pragma acc update host(a, b)
    }
    printf("%d %d\n", a[63], b[63]);
    return 0;
}
