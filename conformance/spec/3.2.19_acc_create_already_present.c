// accsim-flags: --strict-2.0
// expect-exit: 3
// expect-stderr: error
// §3.2.19: "It is a runtime error to call this routine if the data is already present on the
// device."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {0};
    acc_create(a, sizeof a);
    acc_create(a, sizeof a); /* expect: present */
    printf("%d\n", a[0]);
    return 0;
}
