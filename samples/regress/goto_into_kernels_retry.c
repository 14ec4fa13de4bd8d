// Issue 12, compile-time errors: "A program may not branch into or out of an OpenACC kernels
// construct" (OpenACC 2.0 §2.5.2). A retry loop written with `goto` jumps back into the middle of
// the region; accsim stopped with an internal error ("jump to a label that is never placed").
// Both sites: the `goto` and its label, with the construct.
// expect-exit: 2
// expect-stderr: error[branch]: this `goto` branches into a `kernels` construct
// expect-stderr: goto_into_kernels_retry.c:28:9
// expect-stderr: the target of the branch
#include <stdio.h>

int main(void)
{
    double x[64];
    int tries = 0;
    for (int i = 0; i < 64; i++)
        x[i] = i;
#pragma acc kernels copy(x)
    {
        for (int i = 0; i < 64; i++)
            x[i] = x[i] * 0.5;
again:
        for (int i = 0; i < 64; i++)
            x[i] = x[i] + 1.0;
    }
    tries++;
    if (x[0] < 3.0 && tries < 3) {
        printf("retry %d\n", tries);
        goto again; /* expect: compile-error */
    }
    printf("%.2f\n", x[63]);
    return 0;
}
