// expect-exit: 3
// expect-stderr: error
// §2.6.4: an exit data directive for data that was never mapped exits no data lifetime created by
// an enter data directive or a runtime routine.
#include <stdio.h>
int main(void) {
    int a[8] = {0};
#pragma acc exit data copyout(a) /* expect: not-entered */
    printf("%d\n", a[0]);
    return 0;
}
