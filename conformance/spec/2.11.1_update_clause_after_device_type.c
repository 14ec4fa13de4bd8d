// expect-exit: 2
// expect-stderr: error
// §2.11.1 restriction: "Only the if, async and wait clauses may follow a device type clause." A
// host clause after device_type is refused.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
#pragma acc data copy(a)
    {
#pragma acc update device_type(*) host(a) /* expect: compile-error */
    }
    printf("%d\n", a[0]);
    return 0;
}
