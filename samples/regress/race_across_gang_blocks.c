// Issue 12 (check must not sleep): `check` scheduled iterations differently from `run`. With a
// trip count equal to the vector length, `check` put the whole `gang vector` loop in gang 0,
// whose lanes the end of the first loop orders (§1.2), while `run` spreads it over the 8 gangs,
// which never synchronise inside a kernel: gang 0 reads a[31] before gang 7 has written it, and
// `run` printed a sum that `check` never explained. The checked run now uses `run`'s schedule
// (gang g runs the block of iterations [g*n/G, (g+1)*n/G)) and reports both races. The same with
// a collapsed nest.
#include <stdio.h>

#define N 32

int main(void) {
    int a[N], b[N];
    float m[4][8], t[8][4];
    for (int i = 0; i < N; i++) {
        a[i] = 0;
        b[i] = -1;
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) m[i][j] = 0.0f;
#pragma acc parallel num_gangs(8) vector_length(32) copy(a, b)
    {
#pragma acc loop gang vector
        for (int i = 0; i < N; i++) a[i] = i + 1; /* expect: data-race */
#pragma acc loop gang vector
        for (int i = 0; i < N; i++) b[i] = a[N - 1 - i]; /* expect: data-race */
    }
    int sum = 0;
    for (int i = 0; i < N; i++) sum += b[i];
    printf("sum = %d\n", sum);

#pragma acc parallel num_gangs(4) copy(m) copyout(t)
    {
#pragma acc loop gang vector collapse(2)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 8; j++) m[i][j] = i * 8 + j; /* expect: data-race */
#pragma acc loop gang vector collapse(2)
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 4; i++) t[j][i] = m[i][j]; /* expect: data-race */
    }
    printf("t[7][3] = %.0f, m[3][7] = %.0f\n", t[7][3], m[3][7]);
    return 0;
}
