// expect-exit: 2
// expect-stderr: error
// §2.5.1 restriction: "Only the if, async, wait, num_gangs, num_workers, and vector_length
// clauses may follow a device_type clause." (also §2.6.5: "Data clauses may not follow a
// device_type clause.")
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
#pragma acc parallel device_type(*) copy(a) /* expect: compile-error */
    {
        a[0] = 9;
    }
    printf("%d\n", a[0]);
    return 0;
}
