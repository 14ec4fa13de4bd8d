// expect-exit: 2
// expect-stderr: error
// §2.5.1 restriction: "At most one if clause may appear per device type."
#include <stdio.h>
int main(void) {
    int a[4] = {0, 0, 0, 0};
    int n = 4;
#pragma acc parallel loop copy(a) if(n > 2) if(n < 10) /* expect: compile-error */
    for (int i = 0; i < 4; i++) a[i] = i;
    printf("%d\n", a[3]);
    return 0;
}
