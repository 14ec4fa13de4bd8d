// §2.8: "The cache directive may appear at the top of (inside of) a loop. It specifies array
// elements or subarrays that should be fetched into the highest level of the cache" -- a hint:
// the results are those of the loop without it. Lower bound: index minus a constant; length a
// constant.
#include <stdio.h>
int main(void) {
    float u[66], v[66];
    for (int i = 0; i < 66; i++) { u[i] = (float)i; v[i] = 0.0f; }
#pragma acc parallel loop copyin(u) copy(v)
    for (int i = 1; i < 65; i++) {
#pragma acc cache(u[i - 1:3])
        v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0f;
    }
    printf("%.1f %.1f %.1f\n", v[1], v[32], v[64]);
    return 0;
}
