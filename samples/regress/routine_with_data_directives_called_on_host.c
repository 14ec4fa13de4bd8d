// Issue 12 (session 7): a `routine vector` whose body holds a `data` construct and an `update`
// directive was refused at compile time ("`update` may not appear inside a compute construct"),
// as the V&V file declare_create.c showed. A routine is also an ordinary host function: called
// from host code, its directives run on the host like any other (§1.2: "the OpenACC directives
// may be executed by a host thread or an accelerator thread"; §2.12.1: the routine directive
// makes the compiler build a device version *as well*). Only a compute construct inside a routine
// stays an error. Here the host changes `a` and calls `push`, whose loop runs on the host (an
// orphaned loop of a host call) and whose `update device` then makes the device copy current
// before the kernel sums it: 288, not the stale 28.
#include <stdio.h>

#define N 8
double a[N];

#pragma acc routine vector
void push(double *x, int n) {
#pragma acc data present(x[0:n])
    {
#pragma acc loop vector
        for (int i = 0; i < n; i++) x[i] += 1;
    }
#pragma acc update device(x[0:n])
}

int main(void) {
    for (int i = 0; i < N; i++) a[i] = i;
    double sum = 0;
#pragma acc data copyin(a)
    {
        for (int i = 0; i < N; i++) a[i] = 10 * i;
        push(a, N);
#pragma acc parallel loop reduction(+:sum) present(a)
        for (int i = 0; i < N; i++) sum += a[i];
    }
    printf("sum on the device after the routine's update: %g\n", sum);
    return 0;
}
