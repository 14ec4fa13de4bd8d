// expect-exit: 2
// expect-stderr: error
// §2.5.1 restriction: "A program may not branch into or out of an OpenACC parallel construct." A
// return inside the region branches out of it.
#include <stdio.h>
int work(int *a, int n) {
#pragma acc parallel copy(a[0:n])
    {
        a[0] = 5;
        return a[0]; /* expect: compile-error */
    }
    return 0;
}
int main(void) {
    int a[4] = {0, 0, 0, 0};
    printf("%d\n", work(a, 4));
    return 0;
}
