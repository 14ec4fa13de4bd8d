// §2.5.12: a variable may instead appear "in a data clause ... for a data construct that contains
// the parallel or kernels construct".
#include <stdio.h>
int main(void) {
    float u[10], v[10];
    for (int i = 0; i < 10; i++) u[i] = (float)i;
#pragma acc data copyin(u) copyout(v)
    {
#pragma acc parallel loop default(none) present(u, v)
        for (int i = 0; i < 10; i++) v[i] = u[i] + 0.5f;
#pragma acc kernels default(none)
        for (int i = 0; i < 10; i++) v[i] = v[i] * 2.0f;
    }
    printf("%.1f %.1f\n", v[0], v[9]);
    return 0;
}
