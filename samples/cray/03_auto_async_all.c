// Cray CCE's acc_model=auto_async_all (seeds/003, "-h acc_model": "Execute all kernels and data
// transfers asynchronously, ensuring program order is maintained"): the `update host(x)`
// without `async` goes on the implicit queue after the kernel, in program order, and the host
// goes on at once. The host must wait before it reads `x`; this program does, with
// `#pragma acc wait`. Without the wait, `accsim check --acc-model auto_async_all` reports the
// host's read as an async-race naming the model.
// accsim-flags: --acc-model auto_async_all
#include <stdio.h>

#define N 100

int main(void) {
    int x[N];
    for (int i = 0; i < N; i++)
        x[i] = i;
    #pragma acc data copy(x)
    {
        #pragma acc parallel loop
        for (int i = 0; i < N; i++)
            x[i] = x[i] * x[i];
        #pragma acc update host(x)
        #pragma acc wait
        printf("x[9] = %d\n", x[9]);
    }
    #pragma acc wait
    printf("x[99] = %d\n", x[N - 1]);
    return 0;
}
