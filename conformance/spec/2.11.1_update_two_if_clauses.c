// expect-exit: 2
// expect-stderr: error
// §2.11.1 restriction: "At most one if clause may appear per device type."
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc data copy(a)
    {
#pragma acc update host(a) if(1) if(1) /* expect: compile-error */
    }
    printf("%d\n", a[0]);
    return 0;
}
