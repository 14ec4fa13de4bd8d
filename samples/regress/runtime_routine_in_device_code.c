// Issue 12, runtime behaviour: chapter 3's routines are host routines; of them only
// acc_on_device is meant for device code (§3.2.14; §3.2.2, §3.2.13 and others say "may not be
// called within a ... parallel or kernels region"). A GPU has no device version of the others
// and nvc refuses them; accsim ran them on a device thread's copy of the runtime's state.
// A call written in the region (or in a `routine`) is a compile-time error
// (runtime_device_query_in_routine.c); here it is in a helper without a `routine` directive,
// which static checking does not examine (`check` warns that it has no `routine` directive), so it
// is refused when it runs.
// expect-exit: 3
// expect-stderr: error[device-code]
// expect-stderr: runtime_routine_in_device_code.c:18:12
#include <stdio.h>
#include <openacc.h>

#define N 256

static int which_device(void) {
    return acc_get_device_num(acc_device_nvidia); /* expect: device-code */
}

int main(void) {
    int gpu_of[N];
    /* record which device computed each element */
#pragma acc parallel loop copyout(gpu_of)
    for (int i = 0; i < N; i++)
        gpu_of[i] = which_device(); /* expect: missing-routine */
    printf("element 0 ran on device %d\n", gpu_of[0]);
    return 0;
}
