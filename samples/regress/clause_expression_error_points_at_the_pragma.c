// Issue 17 item 1 (the class of the location bug): an error found while lowering a clause's C
// expression (here a member of something that is not a struct) is reported at the directive
// line, in the program's file, not at a line of a header that the expression's offset in
// accsim's own parse of the clause expressions fell on (§2.5.1: num_gangs takes an integer
// expression).
// expect-exit: 2
// expect-stderr: clause_expression_error_points_at_the_pragma.c:16:
// check: skip
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 100, gangs = 4;
    float *a = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) a[i] = i;
#pragma acc parallel loop copy(a[0:n]) num_gangs(gangs.count)
    for (int i = 0; i < n; i++) a[i] *= 2;
    printf("%g\n", a[n - 1]);
    free(a);
    return 0;
}
