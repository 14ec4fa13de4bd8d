// expect-exit: 2
// expect-stderr: error
// §2.6.6: "where the only valid clause is: use_device ( var-list )" -- copy is not allowed.
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc host_data copy(a) /* expect: compile-error */
    {
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
