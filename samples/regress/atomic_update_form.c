// Issue 12, compile-time errors: an `atomic update` statement must be `x binop= expr`,
// `x = x binop expr` or `x = expr binop x` with `expr` not referring to `x` (OpenACC 2.0 §2.12,
// `atomic`, as in OpenMP): `total = total + total * rate` reads `total` a second time outside
// the atomic operation. Both sites: the expression and the directive.
// expect-exit: 2
// expect-stderr: error[atomic]: `total` appears in `expr` of `x = x binop expr`
// expect-stderr: atomic_update_form.c:26:25
// expect-stderr: the `atomic update` directive
#include <stdio.h>

#define N 100

int main(void)
{
    double deposits[N];
    for (int i = 0; i < N; i++)
        deposits[i] = 1.0 + i % 3;
    double total = 0.0;
    const double rate = 0.001;

#pragma acc parallel loop copyin(deposits) copy(total)
    for (int i = 0; i < N; i++) {
#pragma acc atomic update
        total += deposits[i];
#pragma acc atomic update
        total = total + total * rate; /* expect: compile-error */
    }
    printf("%.3f\n", total);
    return 0;
}
