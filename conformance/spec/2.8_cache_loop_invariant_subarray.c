// §2.8: the lower bound may be "a constant, loop invariant" -- a small coefficient table cached
// in every iteration.
#include <stdio.h>
int main(void) {
    float w[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    float x[40], y[40];
    for (int i = 0; i < 40; i++) x[i] = 1.0f;
#pragma acc parallel loop copyin(w, x) copyout(y)
    for (int i = 0; i < 40; i++) {
#pragma acc cache(w[0:4])
        y[i] = w[0] * x[i] + w[1] * x[i] + w[2] * x[i] + w[3] * x[i];
    }
    printf("%.2f %.2f\n", y[0], y[39]);
    return 0;
}
