// Issue 12, V&V on the GPU (host_data.c): device addresses that host code takes
// (`host_data use_device`, §2.8; `acc_deviceptr`, §3.2.28) and passes to a kernel as integers,
// stored in an array the kernel gets a copy of or in a scalar, are device addresses there. On
// the CUDA device accsim names device memory by block and offset; the kernel made a pointer of
// such an integer untranslated and faulted with an illegal address.
#include <stdint.h>
#include <stdio.h>
#include <openacc.h>

#define N 64

int main(void)
{
    double a[N];
    uintptr_t where[N];
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma acc enter data copyin(a)
#pragma acc host_data use_device(a)
    {
        for (int i = 0; i < N; i++)
            where[i] = i % 3 == 0 ? (uintptr_t)&a[i] : 0;
    }
    uintptr_t last = (uintptr_t)acc_deviceptr(&a[N - 1]);
#pragma acc parallel loop copyin(where) present(a)
    for (int i = 0; i < N; i++)
        if (where[i] != 0)
            *(double *)where[i] += 100.0;
#pragma acc parallel num_gangs(1) present(a)
    *(double *)last = -1.0;
#pragma acc exit data copyout(a)
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += a[i];
    printf("a[0] = %.1f, a[1] = %.1f, a[3] = %.1f, a[%d] = %.1f, sum = %.1f\n", a[0], a[1], a[3], N - 1, a[N - 1], sum);
    return 0;
}
