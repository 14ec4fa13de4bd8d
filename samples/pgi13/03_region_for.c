/* 03_region_for.c — the combined `region for` directive and loop scheduling clauses.
 *
 * Teaches: `#pragma acc region for` (1.3 §2.5) is a compute region holding one loop; the loop
 * clauses say how it maps onto the accelerator (1.3 §2.4.1): `parallel` is the doall level
 * (2.0: gang), `vector(w)` the synchronous level with w iterations in a vector (2.0: vector(w)).
 * When two scheduling clauses appear, all but one need a width. In 2.0 this is
 * `#pragma acc kernels loop copyin(x[0:n]) copyout(y[0:n]) gang vector(128)`.
 */
#include <stdio.h>
#include <math.h>

#define N 4096

static float x[N], y[N];

int main(void) {
    int n = N;
    for (int i = 0; i < n; i++) x[i] = (float)i / n;
#pragma acc region for parallel, vector(128) copyin(x[0:n-1]) copyout(y[0:n-1])
    for (int i = 0; i < n; i++)
        y[i] = sqrtf(x[i]) * 2.0f;
    double s = 0;
    for (int i = 0; i < n; i++) s += y[i];
    printf("y[%d] = %.4f, sum = %.2f\n", n / 4, y[n / 4], s);
    return 0;
}
