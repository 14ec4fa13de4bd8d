// expect-exit: 2
// expect-stderr: error
// §2.8: in a simple subarray "the length is a constant"; `width` is a variable.
#include <stdio.h>
int main(void) {
    int width = 3;
    float u[20], v[20];
    for (int i = 0; i < 20; i++) u[i] = i;
#pragma acc parallel loop copyin(u) copyout(v)
    for (int i = 0; i < 17; i++) {
#pragma acc cache(u[i:width]) /* expect: compile-error */
        v[i] = u[i] + u[i + 1] + u[i + 2];
    }
    printf("%.1f\n", v[0]);
    return 0;
}
