// Issue 12, compile-time errors: at file scope a `declare` directive may have only create,
// copyin, deviceptr, device_resident and link clauses (§2.10, restrictions): its region is the
// whole program, so a `copy` would never copy back. gcc: "invalid OpenACC clause at file scope".
// Both sites: the clause and the variable's declaration.
// expect-exit: 2
// expect-stderr: `copy` may not appear on a `declare` directive at file scope
// expect-stderr: declare_copy_file_scope.c:13:21
// expect-stderr: `coeffs` is declared here
#include <stdio.h>

#define N 8
float coeffs[N];
#pragma acc declare copy(coeffs) /* expect: compile-error */

#pragma acc routine seq
static float poly(float x)
{
    float r = 0.0f;
    for (int i = N - 1; i >= 0; i--)
        r = r * x + coeffs[i];
    return r;
}

int main(void)
{
    float y[64];
    for (int i = 0; i < N; i++)
        coeffs[i] = 1.0f / (i + 1);
#pragma acc update device(coeffs)
#pragma acc parallel loop copyout(y)
    for (int i = 0; i < 64; i++)
        y[i] = poly(i / 64.0f);
    printf("%f\n", y[63]);
    return 0;
}
