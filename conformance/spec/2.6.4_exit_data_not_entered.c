// expect-exit: 3
// expect-stderr: error
// §2.6.4: "An exit data directive may only be used to exit a data lifetime created by an enter
// data construct or a runtime API routine." Here the lifetime belongs to a data construct.
#include <stdio.h>
int main(void) {
    int a[8] = {0};
#pragma acc data copy(a)
    {
#pragma acc exit data delete(a) /* expect: not-entered */
    }
    printf("%d\n", a[0]);
    return 0;
}
