// expect-exit: 2
// expect-stderr: error
// §2.12.1.2: "A call to this procedure must appear in code that is executed in worker-single
// mode ... a procedure with a routine worker directive may be called from within a loop that has
// the gang clause, but not from within a loop that has the worker clause."
#include <stdio.h>
#pragma acc routine worker
static void scale(float *v, int n) {
#pragma acc loop worker
    for (int j = 0; j < n; j++) v[j] *= 2.0f;
}
int main(void) {
    static float v[4][16];
#pragma acc parallel loop gang worker copy(v)
    for (int i = 0; i < 4; i++) scale(v[i], 16); /* expect: compile-error */
    printf("%.1f\n", v[0][0]);
    return 0;
}
