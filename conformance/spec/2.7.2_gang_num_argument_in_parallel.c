// expect-exit: 2
// expect-stderr: error
// §2.7.2: in a parallel region, "Only the static argument is allowed" on the gang clause.
#include <stdio.h>
int main(void) {
    int a[16];
#pragma acc parallel copyout(a)
    {
#pragma acc loop gang(num:4) /* expect: compile-error */
        for (int i = 0; i < 16; i++) a[i] = i;
    }
    printf("%d\n", a[15]);
    return 0;
}
