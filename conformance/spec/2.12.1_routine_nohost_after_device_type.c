// expect-exit: 2
// expect-stderr: error
// §2.12.1 restriction: "Only the gang, worker, vector, seq and bind clauses may follow a device
// type clause." nohost after device_type is refused.
#include <stdio.h>
#pragma acc routine seq device_type(*) nohost /* expect: compile-error */
int twice(int x) { return 2 * x; }
int main(void) {
    int a[4] = {1, 2, 3, 4};
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 4; i++) a[i] = twice(a[i]);
    printf("%d\n", a[3]);
    return 0;
}
