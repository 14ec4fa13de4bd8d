// expect-exit: 2
// expect-stderr: error
// §2.8: "The cache directive may appear at the top of (inside of) a loop." Here it is in the
// compute region, outside any loop.
#include <stdio.h>
int main(void) {
    int a[8], b[8];
    for (int i = 0; i < 8; i++) a[i] = i;
#pragma acc parallel copyin(a) copyout(b)
    {
#pragma acc cache(a[0:8]) /* expect: compile-error */
#pragma acc loop
        for (int i = 0; i < 8; i++) b[i] = a[i];
    }
    printf("%d\n", b[7]);
    return 0;
}
