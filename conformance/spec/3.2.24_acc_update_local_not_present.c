// expect-exit: 3
// expect-stderr: error
// §3.2.24: "It is a runtime error to call this routine if the data is not present on the device."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {0};
    acc_update_local(a, sizeof a); /* expect: not-present */
    printf("%d\n", a[0]);
    return 0;
}
