// Issue 12, compile-time errors: acc_get_device_num "may not be called within an accelerator
// parallel or kernels region" (OpenACC 2.0 §3.2.5). A `routine` function is compiled for the
// device, so the call written in it is refused at compile time, naming the `routine` directive;
// the same call in a `kernels` region is refused naming the construct (§3.2.3:
// acc_get_device_type).
// expect-exit: 2
// expect-stderr: error[device-code]: `acc_get_device_num` may not be called
// expect-stderr: runtime_device_query_in_routine.c:19:16
// expect-stderr: `tag_of` is compiled for the device by this `routine` directive
// expect-stderr: error[device-code]: `acc_get_device_type` may not be called
// expect-stderr: runtime_device_query_in_routine.c:30:25
// expect-stderr: the `kernels` construct it is in
#include <stdio.h>
#include <openacc.h>

#pragma acc routine seq
static int tag_of(int i)
{
    return i + acc_get_device_num(acc_device_nvidia) * 1000; /* expect: compile-error */
}

int main(void)
{
    int tags[16];
    int kinds[1];
#pragma acc kernels copyout(tags, kinds)
    {
        for (int i = 0; i < 16; i++)
            tags[i] = tag_of(i);
        kinds[0] = (int)acc_get_device_type(); /* expect: compile-error */
    }
    printf("%d %d\n", tags[3], kinds[0]);
    return 0;
}
