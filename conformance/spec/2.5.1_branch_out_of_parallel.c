// expect-exit: 2
// expect-stderr: error
// §2.5.1 restriction: "A program may not branch into or out of an OpenACC parallel construct."
#include <stdio.h>
int main(void) {
    int a[4] = {0, 0, 0, 0};
#pragma acc parallel copy(a)
    {
        a[0] = 1;
        goto done; /* expect: compile-error */
    }
done:
    printf("%d\n", a[0]);
    return 0;
}
