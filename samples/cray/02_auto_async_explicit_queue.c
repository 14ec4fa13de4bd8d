// Under Cray CCE's default acc_model=auto_async_kernel (seeds/003, "-h acc_model"), a kernel
// without `async` runs on CCE's implicit queue. This program is correct OpenACC 2.0 (the kernel
// ends before the host goes on, §2.5.1) but not under CCE's default: the `update host(b)
// async(1)` goes on queue 1, which does not wait for the implicit queue, so it may copy `b`
// while the kernel still writes it. `accsim check --cray` reports the async-race and names the
// model; the fix is a `wait` before the update, or `async(1)` on the kernel too.
// accsim-flags: --cray
// check: skip
#include <stdio.h>

#define N 256

int main(void) {
    float b[N];
    #pragma acc data create(b)
    {
        #pragma acc parallel loop
        for (int i = 0; i < N; i++)
            b[i] = 0.5f * i;
        #pragma acc update host(b) async(1)
        #pragma acc wait(1)
    }
    printf("b[N-1] = %.1f\n", b[N - 1]);
    return 0;
}
