// expect-exit: 2
// expect-stderr: error
// §2.1: "Only one directive-name can be specified per directive." (`parallel` and `data` are two
// directive names; `parallel loop` is one combined name, §2.9.)
#include <stdio.h>
int main(void) {
    int a[4] = {0, 0, 0, 0};
#pragma acc parallel data copy(a) /* expect: compile-error */
    {
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
