// Issue 12 item 2 (session 6, item 3): device code reading an element below the start of the
// subarray a data clause mapped is out of bounds at the access, naming the mapped part. §2.6.5:
// "The subarray arr[2:n] means element a[2], a[3], ..., a[2+n-1]", and "If a subarray is
// specified in a data clause, the compiler may choose to allocate memory for only that subarray
// on the accelerator." Here a three-point stencil over the interior 10..59 maps exactly the
// interior (`copyin(a[10:50])`) and forgets the halo: a[9] and a[60] are read on the device.
// accsim reported the read past the end but read zeros below the start silently (device blocks
// had no lower bound).
// expect-exit: 3
// expect-stderr: before the mapped part
// expect-stderr: `a[10:50]`
#include <stdio.h>

#define N 100

int main(void)
{
    double a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = i * 0.5;
        b[i] = 0;
    }
#pragma acc parallel loop copyin(a[10:50]) copyout(b[10:50])
    for (int i = 10; i < 60; i++)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0; /* expect: out-of-bounds */
    printf("%g %g\n", b[10], b[59]);
    return 0;
}
