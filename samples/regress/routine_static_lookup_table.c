// Issue 12, compile-time errors: "In C and C++, function static variables are not supported in
// functions to which a routine directive applies" (OpenACC 2.0 §2.12.1). A `static const`
// lookup table inside a `routine vector` function is such a variable (nvc: "static variables
// are not supported in acc routine"); accsim stopped at run time reading host memory. Both
// sites: the variable and the `routine` directive.
// expect-exit: 2
// expect-stderr: error[routine]: `weights` is a static variable of `blend`
// expect-stderr: routine_static_lookup_table.c:17:24
// expect-stderr: `blend` is compiled for the device by this `routine` directive
#include <stdio.h>

#define N 256

#pragma acc routine vector
void blend(float *out, const float *in, int n)
{
    static const float weights[3] = {0.25f, 0.5f, 0.25f}; /* expect: compile-error */
#pragma acc loop vector
    for (int i = 1; i < n - 1; i++)
        out[i] = weights[0] * in[i - 1] + weights[1] * in[i] + weights[2] * in[i + 1];
}

int main(void)
{
    float a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 0.0f;
    }
#pragma acc parallel num_gangs(1) copyin(a) copy(b)
    blend(b, a, N);
    printf("%.2f\n", b[10]);
    return 0;
}
