// expect-exit: 2
// expect-stderr: error
// §2.1: "Directives are case sensitive." `PARALLEL` is not an OpenACC directive name, so the
// directive is invalid and the program is refused.
#include <stdio.h>
int main(void) {
    int a[4] = {0, 0, 0, 0};
#pragma acc PARALLEL copy(a) /* expect: compile-error */
    {
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
