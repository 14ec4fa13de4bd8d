/* 24_device_type.c — tune clauses per accelerator: device_type (dtype).
 *
 * Teaches: clauses after `device_type(list)` (§2.4) apply only when compiling for a device type
 * in the list; after `device_type(*)`, for every type not named elsewhere on the directive;
 * clauses before any device_type apply to all. `dtype` is the short spelling. Only some clauses
 * may follow it: on parallel, if/async/wait/num_gangs/num_workers/vector_length (§2.5.1); on a
 * loop, collapse/gang/worker/vector/seq/auto/tile (§2.7); on routine, gang/worker/vector/seq/bind
 * (§2.12.1). Device names (nvidia, radeon, xeonphi) are in §6.1. The schedule differs between
 * devices; the results do not.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>

#define N 3000

static float x[N], y[N];

#pragma acc routine seq
static float poly3(float v) {
    return (v * 0.5f + 1.0f) * v;
}

int main(void) {
    for (int i = 0; i < N; i++) x[i] = (float)(i % 12) * 0.25f;

#pragma acc parallel copyin(x) copyout(y) \
    device_type(nvidia) num_gangs(24) vector_length(128) \
    dtype(radeon) num_gangs(16) vector_length(64) \
    dtype(*) num_gangs(4) vector_length(16)
    {
#pragma acc loop gang dtype(nvidia) vector dtype(*) seq
        for (int i = 0; i < N; i++)
            y[i] = poly3(x[i]);
    }

    double s = 0.0;
    for (int i = 0; i < N; i++) s += y[i];
    printf("y[11] = %.6f, sum(y) = %.6f\n", y[11], s);
    return 0;
}
