// expect-exit: 3
// expect-stderr: not present
// §2.6.5.7: "If there is no active data lifetime that has placed any of the variables or arrays
// on the accelerator, the program will halt with a runtime error."
#include <stdio.h>
int main(void) {
    float a[10] = {0};
#pragma acc parallel loop present(a) /* expect: not-present */
    for (int i = 0; i < 10; i++) a[i] = 1.0f;
    printf("%.1f\n", a[0]);
    return 0;
}
