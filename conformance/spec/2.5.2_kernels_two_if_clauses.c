// expect-exit: 2
// expect-stderr: error
// §2.5.2 restriction: "At most one if clause may appear per device type."
#include <stdio.h>
int main(void) {
    int a[8] = {0};
#pragma acc kernels if(1) if(0) copy(a) /* expect: compile-error */
    for (int i = 0; i < 8; i++) a[i] = i;
    printf("%d\n", a[7]);
    return 0;
}
