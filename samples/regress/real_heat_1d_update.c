// Issue 12 (real-code samples): explicit 1-D heat diffusion: the field stays on the device for
// the whole run (data construct, §2.6.3), every 100 steps `update host` (§2.11.1) brings it back
// to report the centre temperature, and the boundary values are set on the host and sent with
// `update device`.
#include <stdio.h>

#define NX 200

int main(void) {
    static double u[NX], un[NX];
    for (int i = 0; i < NX; i++) u[i] = 0.0;
    const double alpha = 0.25;
#pragma acc data copy(u) create(un)
    {
        for (int step = 1; step <= 400; step++) {
            if (step == 1) {
                u[0] = 100.0;
                u[NX - 1] = 50.0;
#pragma acc update device(u[0:1])
#pragma acc update device(u[NX - 1:1])
            }
#pragma acc parallel loop present(u, un)
            for (int i = 1; i < NX - 1; i++) un[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma acc parallel loop present(u, un)
            for (int i = 1; i < NX - 1; i++) u[i] = un[i];
            if (step % 100 == 0) {
#pragma acc update host(u)
                printf("step %3d: u[1] = %.4f u[10] = %.4f u[198] = %.4f\n", step, u[1], u[10], u[NX - 2]);
            }
        }
    }
    return 0;
}
