// expect-exit: 2
// expect-stderr: error
// §2.5.2 restriction: "A program may not branch into or out of an OpenACC kernels construct."
#include <stdio.h>
int main(void) {
    int a[8] = {0};
#pragma acc kernels copy(a)
    {
        for (int i = 0; i < 8; i++) a[i] = i;
        goto out; /* expect: compile-error */
    }
out:
    printf("%d\n", a[7]);
    return 0;
}
