// §3.2.8: "If that value appeared in one or more async clauses, the acc_wait routine will not
// return until the latest such asynchronous operation has completed."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[30];
#pragma acc data create(a)
    {
#pragma acc parallel loop async(11)
        for (int i = 0; i < 30; i++) a[i] = i + 1;
#pragma acc parallel loop async(11)
        for (int i = 0; i < 30; i++) a[i] *= 3;
#pragma acc update host(a) async(11)
        acc_wait(11);
        printf("%d %d\n", a[0], a[29]);
    }
    return 0;
}
