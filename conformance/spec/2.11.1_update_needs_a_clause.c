// expect-exit: 2
// expect-stderr: error
// §2.11.1: "At least one local, host or device clause must appear."
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc data copy(a)
    {
#pragma acc update if(1) /* expect: compile-error */
    }
    printf("%d\n", a[0]);
    return 0;
}
