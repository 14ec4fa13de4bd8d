// expect-exit: 2
// expect-stderr: error
// §2.7: "The OpenACC loop directive applies to a loop which must immediately follow this
// directive." A block is not a loop.
#include <stdio.h>
int main(void) {
    int a[4] = {0};
#pragma acc parallel copy(a)
    {
#pragma acc loop
        { /* expect: compile-error */
            a[0] = 1;
        }
    }
    printf("%d\n", a[0]);
    return 0;
}
