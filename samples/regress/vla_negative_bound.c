// Issue 14, untrusted programs: a variable-length array whose bound is negative (C11 §6.7.6.2p5:
// it "shall evaluate to a value greater than zero") was reported as a memory limit reached
// ("allocating 18446744073709550816 bytes"). It is now a runtime error naming the bound, as
// gcc's -fsanitize=vla-bound reports it.
// expect-exit: 3
// expect-stderr: error[vla-bound]
// expect-stderr: vla_negative_bound.c:14:12
#include <stdio.h>

static double mean_of_last(const double *x, int n, int k)
{
    /* k > n makes the window negative */
    int len = n - k;
    double w[len]; /* expect: vla-bound */
    double s = 0.0;
    for (int i = 0; i < len; i++) {
        w[i] = x[k + i];
        s += w[i];
    }
    return len > 0 ? s / len : 0.0;
}

int main(void) {
    double x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    printf("%f\n", mean_of_last(x, 8, 2));
    printf("%f\n", mean_of_last(x, 8, 10));
    return 0;
}
