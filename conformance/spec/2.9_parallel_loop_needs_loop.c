// expect-exit: 2
// expect-stderr: error
// §2.9: "The associated structured block is the loop which must immediately follow the directive."
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc parallel loop copy(a)
    { /* expect: compile-error */
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
