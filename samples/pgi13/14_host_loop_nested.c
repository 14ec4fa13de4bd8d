/* 14_host_loop_nested.c — a `host` loop inside the time-step loop of a compute region (PGI
 * Accelerator 1.3 §2.4.1.1).
 *
 * Teaches: a `#pragma acc for host` loop runs "sequentially on the host processor" wherever it
 * is in the region. Here it is inside the time-step loop, beside a parallel loop of the same
 * step: the time-step loop runs on the host too, and each step launches a kernel for the
 * parallel loop, then copies `u` to the host for the host loop (`update host(u)`) and the
 * step's peak back to the device (`update device(peak)`), which the next step's kernel reads.
 * In OpenACC 2.0: a `data` construct holding the time-step loop, a `kernels` construct inside
 * it, and the updates around the host loop. Run `accsim info` to see the 2.0 form, and
 * `accsim run --notify` to see one kernel launch and two updates per step.
 */
#include <stdio.h>

#define N 1000
#define STEPS 4

int main(void) {
    static float u[N], peak[STEPS];
#pragma acc region copyout(u)
    {
        for (int t = 0; t < STEPS; t++) {
#pragma acc for parallel
            for (int i = 0; i < N; i++)
                u[i] = (float)((i * (t + 3)) % 17) * 0.25f + (t > 0 ? 0.5f * peak[t - 1] : 0.0f);
#pragma acc for host
            for (int i = 0; i < N; i++)
                if (u[i] > peak[t])
                    peak[t] = u[i];
        }
    }
    printf("peaks: %g %g %g %g; u[N-1] = %g\n", peak[0], peak[1], peak[2], peak[3], u[N - 1]);
    return 0;
}
