/* 13_host_data.c — pass a device address to code that expects one.
 *
 * Teaches: inside `#pragma acc host_data use_device(x)` (§2.6.6, §2.6.6.1) the host code sees the
 * DEVICE address of x, which must be present from an enclosing data region. This is how an
 * OpenACC program hands its device arrays to a library written for device pointers (cuBLAS, a
 * CUDA kernel). Here the "library" is device_daxpy / device_dot: their compute regions declare
 * their pointer arguments `deviceptr` (§2.6.5.1), so nothing is looked up or copied for them.
 * Outside host_data, the same name means the host copy again. The library may not dereference the
 * pointers on the host: on a separate-memory device they are not host addresses (§1.3).
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

/* The "library": all pointers are device addresses. */
static void device_daxpy(int n, double a, const double *x, double *y) {
#pragma acc parallel loop deviceptr(x, y)
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

static double device_dot(int n, const double *x, const double *y) {
    double s = 0.0;
#pragma acc parallel loop deviceptr(x, y) reduction(+:s)
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

int main(void) {
    int n = 3000;
    double *x = malloc(n * sizeof *x);
    double *y = malloc(n * sizeof *y);
    if (!x || !y) return 1;
    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 10);
        y[i] = 1.0;
    }

    double dot = 0.0;
#pragma acc data copyin(x[0:n]) copy(y[0:n])
    {
#pragma acc host_data use_device(x, y)
        {
            device_daxpy(n, 0.5, x, y);     /* y = 1 + 0.5 x */
            dot = device_dot(n, x, y);
        }
        /* Ordinary compute region again: y means the host name, mapped through present. */
#pragma acc parallel loop present(y[0:n])
        for (int i = 0; i < n; i++) y[i] = 2.0 * y[i];
    }

    double ysum = 0.0;
    for (int i = 0; i < n; i++) ysum += y[i];
    printf("dot(x, y) = %.6f\n", dot);
    printf("y[3] = %.6f, sum(y) = %.6f\n", y[3], ysum);
    free(x);
    free(y);
    return 0;
}
