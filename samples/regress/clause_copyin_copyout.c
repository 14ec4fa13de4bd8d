// Issue 12, compile-time errors: one variable in two data clauses of one construct. On a construct
// a variable has one data attribute (§2.6); `copyin(x) copyout(x)` is what `copy(x)` says
// (§2.6.5.1), and gcc rejects the pair ("'x' appears more than once in data clauses"). Both
// sites: the two clauses. Also for subarrays of one array on a data construct.
// expect-exit: 2
// expect-stderr: `x` appears in `copyout` and in `copyin` on `parallel loop`
// expect-stderr: clause_copyin_copyout.c:25:45
// expect-stderr: `x` is in `copyin` here
// expect-stderr: `v` appears in `create` and in `pcopyin` on `data`
// expect-stderr: clause_copyin_copyout.c:30:44
#include <stdio.h>
#include <stdlib.h>

#define N 1000

int main(void)
{
    float x[N];
    float *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++) {
        x[i] = i;
        v[i] = 1.0f;
    }

#pragma acc parallel loop copyin(x) copyout(x) /* expect: compile-error */
    for (int i = 0; i < N; i++)
        x[i] = 2.0f * x[i];

    float sum = 0.0f;
#pragma acc data pcopyin(v[0:N]) create(v[0:N]) /* expect: compile-error */
    {
#pragma acc parallel loop reduction(+:sum)
        for (int i = 0; i < N; i++)
            sum += v[i] * x[i];
    }
    printf("%f\n", sum);
    free(v);
    return 0;
}
