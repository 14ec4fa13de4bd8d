// Issue 12 item 2 (session 6, item 3): `update` of elements outside the mapped part of an array.
// §2.11.1 / §3.2.21-22: it is a runtime error to update data that is not present. Here the data
// construct maps `a[10:50]` and the update asks for `a[0:10]`, none of which is mapped: an error
// naming the subarray (`not-present`), with exit status 3. (Inside the mapped part the update
// is fine, as the first one shows.)
// expect-exit: 3
// expect-stderr: `update` of `a[0:10]`, which is not present
#include <stdio.h>

int main(void)
{
    int a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc data copy(a[10:50])
    {
#pragma acc update device(a[20:10])
#pragma acc update self(a[0:10]) /* expect: not-present */
    }
    printf("%d\n", a[15]);
    return 0;
}
