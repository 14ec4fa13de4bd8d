// expect-exit: 3
// expect-stderr: error
// §3.2.22: "It is a runtime error to call this routine if the data is not present on the device".
#include <stdio.h>
#include <openacc.h>
int main(void) {
    double d[2] = {0};
    acc_delete(d, sizeof d); /* expect: not-entered */
    printf("%.1f\n", d[0]);
    return 0;
}
