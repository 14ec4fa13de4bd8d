// §3.2.28: acc_hostptr returns the host address for "the address of a device variable or array,
// such as that returned from acc_deviceptr, acc_create or acc_copyin."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[16];
    void *d = acc_create(a, sizeof a);
    printf("from acc_create: %d\n", acc_hostptr(d) == (void *)a);
    printf("from acc_deviceptr: %d\n", acc_hostptr(acc_deviceptr(&a[4])) == (void *)&a[4]);
    acc_delete(a, sizeof a);
    return 0;
}
