// §3.2.17: acc_copyin "is equivalent to the enter data directive with a copyin clause ... the
// function returns a pointer to the allocated space"; the data is then present and usable with
// the present clause.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = i + 1;
    void *d = acc_copyin(a, sizeof a);
    printf("returned the device copy: %d\n", d != NULL && d == acc_deviceptr(a));
    int s = 0;
#pragma acc parallel loop present(a) reduction(+:s)
    for (int i = 0; i < 8; i++) s += a[i];
    acc_delete(a, sizeof a);
    printf("s = %d\n", s);
    return 0;
}
