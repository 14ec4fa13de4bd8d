// expect-exit: 2
// expect-stderr: error
// §2.7.3: in a parallel region, on the worker clause "No argument is allowed."
#include <stdio.h>
int main(void) {
    int a[16];
#pragma acc parallel copyout(a)
    {
#pragma acc loop gang worker(4) /* expect: compile-error */
        for (int i = 0; i < 16; i++) a[i] = i;
    }
    printf("%d\n", a[15]);
    return 0;
}
