// Issue 17 item 1: a name a 1.3 directive's clause uses that is no variable and no macro is
// reported at the directive, in the program's file. It was reported at the line of a system
// header (bits/types.h) that the offset of the expression in accsim's own parse of the clause
// expressions fell on.
// expect-exit: 2
// expect-stderr: use of undeclared identifier `M`
// expect-stderr: pgi13_undeclared_name_in_region_clause.c:15:
// check: skip
#include <stdio.h>

#define N 8

int main(void) {
    float p[N], q[N];
#pragma acc region copyin(p[0:M-1]) copyout(q[0:N-1])
    {
        for (int i = 0; i < N; i++) q[i] = 2 * p[i];
    }
    printf("%g\n", q[N - 1]);
    return 0;
}
