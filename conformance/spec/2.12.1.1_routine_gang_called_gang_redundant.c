// §2.12.1.1: "A call to this procedure must appear in code that is executed in gang-redundant
// mode, and all gangs must execute the call." Every gang calls the routine; its gang loop shares
// the iterations among them.
#include <stdio.h>
#define N 1000
#pragma acc routine gang
static void square_all(double *v, int n) {
#pragma acc loop gang vector
    for (int i = 0; i < n; i++) v[i] = v[i] * v[i];
}
int main(void) {
    static double v[N];
    for (int i = 0; i < N; i++) v[i] = i * 0.5;
#pragma acc parallel num_gangs(4) copy(v)
    square_all(v, N);
    double s = 0;
    for (int i = 0; i < N; i++) s += v[i];
    printf("v[10] = %.2f, sum = %.2f\n", v[10], s);
    return 0;
}
