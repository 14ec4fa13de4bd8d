/* 05_declarative.c — declarative data directives, `reflected` and `device present`.
 *
 * Teaches (1.3 §2.6): a declarative data directive just after an array's declaration gives the
 * array a device copy for the function's whole implicit data region (2.0: `declare`): `copyin`
 * copies it in when the function starts, `local` only allocates it (2.0: `create`).
 * `reflected(list)` (1.3 §2.6.8) on a function's dummy arrays says the caller has a device copy
 * the function uses (2.0: `declare present`); in C a prototype carries the same clause with
 * `#pragma acc function(name) reflected(list)` so callers in other files know it.
 * `device present(list)` (1.3 §2.7.2) finds the device copy an enclosing data region made
 * (2.0: `declare present`).
 */
#include <stdio.h>

#define N 256

void smooth(float a[N], float b[N]);
#pragma acc function(smooth) reflected(a, b)

void smooth(float a[N], float b[N]) {
#pragma acc reflected(a, b)
#pragma acc region
    {
        for (int i = 1; i < N - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0f;
    }
}

float total(float b[N]) {
#pragma acc device present(b)
    float s = 0;
#pragma acc region
    {
        for (int i = 0; i < N; i++)
            s += b[i];
    }
    return s;
}

int main(void) {
    float a[N];
#pragma acc copyin(a)
    float b[N];
#pragma acc local(b)
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i % 8);
        b[i] = 0;
    }
#pragma acc update device(a, b)
    smooth(a, b);
    float s = total(b);
#pragma acc update host(b)
    printf("b[1] = %g, b[%d] = %g, device sum = %g\n", b[1], N - 2, b[N - 2], s);
    return 0;
}
