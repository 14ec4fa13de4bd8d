// §2.10: in a function, "the clauses have exactly the same behavior as having an explicit data
// construct surrounding the body of the procedure with these clauses." declare copyin: the
// device copy starts with the host values, and the device's changes are not copied back.
#include <stdio.h>
static void work(int *out) {
    int coef[4] = {1, 2, 3, 4};
#pragma acc declare copyin(coef)
#pragma acc parallel loop copyout(out[0:4])
    for (int i = 0; i < 4; i++) { out[i] = coef[i] * 10; coef[i] = 0; }
    printf("host coef after region: %d %d\n", coef[0], coef[3]); /* expect: stale-host-read */
}
int main(void) {
    int out[4];
    work(out);
    printf("out: %d %d %d %d\n", out[0], out[1], out[2], out[3]);
    return 0;
}
