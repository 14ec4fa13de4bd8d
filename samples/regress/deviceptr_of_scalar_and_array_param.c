// Issue 12, compile-time errors: "In C and C++, the variables in var-list [of deviceptr] must be
// pointers" (OpenACC 2.0 §2.6.5.1). An `int` count passed in `deviceptr` by mistake (it belongs
// in `firstprivate`) is refused; the pointer from acc_malloc and an array parameter (a pointer
// after adjustment, C11 6.7.6.3) are accepted.
// expect-exit: 2
// expect-stderr: error[directive]: `n` in `deviceptr` has type `int`
// expect-stderr: deviceptr_of_scalar_and_array_param.c:16:40
#include <stdio.h>
#include <openacc.h>

static void scale(float d[], int n)
{
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++)
        d[i] *= 2.0f;
#pragma acc parallel loop deviceptr(d, n) /* expect: compile-error */
    for (int i = 0; i < n; i++)
        d[i] += 1.0f;
}

int main(void)
{
    float *d = acc_malloc(64 * sizeof(float));
    scale(d, 64);
    acc_free(d);
    printf("done\n");
    return 0;
}
