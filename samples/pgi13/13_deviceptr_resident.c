/* 13_deviceptr_resident.c — `deviceptr`, `device resident` and strip widths of `seq`.
 *
 * Teaches (1.3 §2.3.3.5, §2.6.5, §2.6.6, §2.4.1.3):
 * - `deviceptr(list)` (C only) on a region says the pointers already point into device memory:
 *   nothing is allocated or moved for them. Here the device buffer comes from `acc_malloc`
 *   (OpenACC 2.0 §3.2.15: "Pointers assigned from this function may be used in deviceptr
 *   clauses"). `copyin(in[0:511])` is 1.3's inclusive range (§2.3.3): the 512 elements;
 * - the declarative `device resident(list)` just after an array's declaration allocates the
 *   array on the device only, for the function's implicit data region (2.0 `declare
 *   device_resident`): a scratch array the host never sees;
 * - `seq(width)`: a sequential loop strip-mined to `width` iterations per strip (a performance
 *   hint; 2.0 has no spelling for the width and runs the loop `seq`).
 */
#include <stdio.h>
#include <accel.h>

#define N 512

static float smooth(const float *in, float *out_dev) {
    float scratch[N];
#pragma acc device resident(scratch)
    float result[N];
#pragma acc region copyin(in[0:511]) copyout(result) deviceptr(out_dev)
    {
#pragma acc for parallel
        for (int i = 0; i < N; i++)
            scratch[i] = in[i] * 0.5f;
#pragma acc for parallel
        for (int i = 0; i < N; i++) {
            float left = i > 0 ? scratch[i - 1] : 0.0f;
            float right = i < N - 1 ? scratch[i + 1] : 0.0f;
            out_dev[i] = left + scratch[i] + right;
        }
#pragma acc for parallel
        for (int i = 0; i < N; i += 64) {
            float s = 0;
#pragma acc for seq(16)
            for (int j = i; j < i + 64; j++)
                s += out_dev[j];
            result[i / 64] = s;
        }
    }
    float total = 0;
    for (int k = 0; k < N / 64; k++)
        total += result[k];
    return total;
}

int main(void) {
    static float in[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 10);
    float *out_dev = acc_malloc(N * sizeof(float));
    printf("sum of the smoothed strips: %.1f\n", smooth(in, out_dev));
    acc_free(out_dev);
    return 0;
}
