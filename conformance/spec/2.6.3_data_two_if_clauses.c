// expect-exit: 2
// expect-stderr: error
// §2.6.3.1: "At most one if clause may appear."
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc data copy(a) if(1) if(1) /* expect: compile-error */
    {
#pragma acc parallel loop
        for (int i = 0; i < 4; i++) a[i] = i;
    }
    printf("%d\n", a[3]);
    return 0;
}
