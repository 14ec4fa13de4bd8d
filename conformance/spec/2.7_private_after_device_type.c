// expect-exit: 2
// expect-stderr: error
// §2.7 restriction: "Only the collapse, gang, worker, vector, seq, auto and tile clauses may
// follow a device_type clause."
#include <stdio.h>
int main(void) {
    int a[16];
    int t;
#pragma acc parallel copyout(a)
    {
#pragma acc loop gang device_type(*) private(t) /* expect: compile-error */
        for (int i = 0; i < 16; i++) { t = i * 2; a[i] = t; }
    }
    printf("%d\n", a[15]);
    return 0;
}
