// Issue 12, compile-time errors: "C and C++ extern variables may only appear in create, copyin,
// deviceptr, device resident and link clauses on a declare directive" (OpenACC 2.0 §2.10). A
// function that declares the global histogram `extern` and asks for `declare copyout` of it is
// refused (`declare create` of the same variable is accepted). Both sites: the clause and the
// variable's definition.
// expect-exit: 2
// expect-stderr: error[directive]: `histogram` is an extern variable
// expect-stderr: declare_extern_copyout.c:26:29
// expect-stderr: `histogram` is defined here
#include <stdio.h>

int histogram[16];
float samples[16];

static void tally(void)
{
    extern float samples[16];
#pragma acc declare create(samples)
    for (int i = 0; i < 16; i++)
        samples[i] = (float)i;
}

static void count(void)
{
    extern int histogram[16];
#pragma acc declare copyout(histogram) /* expect: compile-error */
#pragma acc parallel loop
    for (int i = 0; i < 16; i++)
        histogram[i] = i % 4;
}

int main(void)
{
    tally();
    count();
    printf("%d\n", histogram[5]);
    return 0;
}
