// Issue 12, runtime behaviour on the host device (ACC_DEVICE_TYPE=host, §4.1): it shares the
// host's memory, so acc_copyin/acc_create "take no action" and return the data's own address
// (§3.2.17–§3.2.20: their allocations and copies happen "on a non-shared memory accelerator"),
// acc_copyout/acc_delete do nothing, acc_malloc returns memory the host-run regions can use
// through `deviceptr`, and acc_memcpy_to/from_device copy within it. accsim used to make
// device copies the host-run regions could not address.
// accsim-env: ACC_DEVICE_TYPE=host
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 1000

int main(void) {
    double *x = malloc(N * sizeof *x);
    for (int i = 0; i < N; i++)
        x[i] = i;
    double *dx = acc_copyin(x, N * sizeof *x);
    double *tmp = acc_malloc(N * sizeof *tmp);
    printf("acc_copyin returns the host address: %d\n", dx == x);
#pragma acc parallel loop deviceptr(dx, tmp)
    for (int i = 0; i < N; i++)
        tmp[i] = 2 * dx[i];
    acc_memcpy_from_device(x, tmp, N * sizeof *x);
    acc_copyout(x, N * sizeof *x);
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += x[i];
    printf("sum = %.0f\n", sum);
    acc_free(tmp);
    free(x);
    return 0;
}
