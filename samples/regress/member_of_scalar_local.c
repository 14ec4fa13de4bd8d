// Issue 14, found by the front-end fuzzer: `.` applied to a scalar local (`i.v` with `int i`,
// a typo for `h.v`) was an internal error ("address of a register local", exit 101) before the
// type error: the member access took the address of the base before checking that it is a
// structure (C11 6.5.2.3p1: the first operand of `.` has structure or union type). Now it is
// the compile error gcc gives.
// expect-exit: 2
// expect-stderr: error[type]
// expect-stderr: member reference base type `int` is not a structure or union
// expect-stderr: member_of_scalar_local.c:20:
// check: skip
#include <stdio.h>
#include <stdlib.h>

struct vec { int len; double *v; };

int main(void) {
    struct vec h = {4, malloc(4 * sizeof(double))};
    #pragma acc parallel loop copyout(h.v[0:h.len])
    for (int i = 0; i < h.len; i++)
        i.v[i] = i + 1.0;
    printf("%g\n", h.v[3]);
    return 0;
}
