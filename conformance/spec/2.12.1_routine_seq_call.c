// §2.12.1: "The routine directive is used to tell the compiler to compile a given procedure for
// an accelerator as well as the host." The same function runs on the host and in a compute region.
#include <stdio.h>
#pragma acc routine seq
static float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
int main(void) {
    float v[6] = {-1.0f, 0.25f, 0.5f, 2.0f, 0.75f, 1.0f};
    float w[6];
#pragma acc parallel loop copyin(v) copyout(w)
    for (int i = 0; i < 6; i++) w[i] = clamp01(v[i]);
    printf("device: %.2f %.2f %.2f  host: %.2f\n", w[0], w[1], w[3], clamp01(v[3]));
    return 0;
}
