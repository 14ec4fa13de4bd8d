// Issue 12 item 2 (session 6, item 3): an `enter data` of part of a heap array, then a kernels
// loop naming it `present`, reading from index 0: the elements before the mapped part have no
// device copy (§2.6.5: "the compiler may choose to allocate memory for only that subarray"), so
// the read of p[0] is out of bounds at the access and the message names `p[16:48]`. accsim read
// zeros below the start of the part (device blocks had no lower bound).
// expect-exit: 3
// expect-stderr: out-of-bounds read of 4 bytes at offset 0 of the device copy of `p[16:48]`
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 64;
    int *p = malloc(n * sizeof *p);
    if (!p) return 1;
    for (int i = 0; i < n; i++) p[i] = i;
#pragma acc enter data copyin(p[16:48])
    long sum = 0;
#pragma acc kernels present(p[16:48]) copy(sum)
    for (int i = 0; i < n; i++)
        sum += p[i]; /* expect: out-of-bounds */
#pragma acc exit data delete(p[16:48])
    printf("%ld\n", sum);
    free(p);
    return 0;
}
