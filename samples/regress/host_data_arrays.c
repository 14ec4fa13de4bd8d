// Issue 12 item 3: `host_data use_device(a)` on an array makes `a` stand for the address of its
// device copy inside the construct (§2.8), as it does for a pointer: the usual way to hand
// mapped data to a library that takes device pointers. Variants: a local array, a global array,
// an array mapped through a subarray (its device copy's address at the array's start, the
// virtual base), and a pointer for comparison. The "library" here is a function whose compute
// construct takes the device addresses with `deviceptr` (§2.6.5.9).
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 64

float g[N];

/* Scales n floats that live in device memory. */
static void device_scale(float *restrict d, int n, float factor)
{
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++)
        d[i] *= factor;
}

int main(void)
{
    float a[N], part[N];
    float *p = malloc(N * sizeof *p);
    int same = 1;
    for (int i = 0; i < N; i++)
        a[i] = g[i] = part[i] = p[i] = 1.0f;

#pragma acc data copy(a, g, part[8:16], p[0:N])
    {
        void *dev_a = acc_deviceptr(a);
#pragma acc host_data use_device(a, g, p)
        {
            same = (void *)a == dev_a;
            device_scale(a, N, 2.0f);
            device_scale(g, N, 3.0f);
            device_scale(p, N, 4.0f);
        }
#pragma acc host_data use_device(part)
        {
            device_scale(part + 8, 16, 5.0f);
        }
    }
    printf("use_device(a) is acc_deviceptr(a): %d\n", same);
    printf("a[0] = %.0f, g[N-1] = %.0f, p[3] = %.0f\n", a[0], g[N - 1], p[3]);
    printf("part[7] = %.0f, part[8] = %.0f, part[23] = %.0f, part[24] = %.0f\n", part[7], part[8], part[23], part[24]);
    free(p);
    return 0;
}
