// Issue 12 item 5: `&x` of a variable that is private to the threads of a loop (`private(x)`,
// §2.7.10) must be the address of the thread's own copy: every thread's code names its copy
// (§2.6.1), whether it reads `x` directly or through a pointer. It was the gang's shared
// variable (wrong results, and a data race that the program does not have). A local declared
// before the loop, as C89 code does, a global, gang-vector and vector loops, the address passed
// to a `routine` or kept in a pointer.
#include <stdio.h>
#define N 256
#define M 64
#pragma acc routine seq
static void scale(float *v, float f) { *v = *v * f; }
#pragma acc routine seq
static void add_to(int *acc, int v) { *acc += v; }
float g;
int main(void) {
    float a[N], b[N][M], x;
    int cnt;
    for (int i = 0; i < N; i++) { a[i] = i; for (int j = 0; j < M; j++) b[i][j] = j; }
    /* private on the loop of a parallel construct, address passed to a routine */
#pragma acc parallel copy(a)
    {
#pragma acc loop gang vector private(x)
        for (int i = 0; i < N; i++) {
            x = a[i];
            scale(&x, 2.0f);
            a[i] = x;
        }
    }
    /* worker/vector inner loop with private int counter by address */
#pragma acc parallel loop gang copy(b)
    for (int i = 0; i < N; i++) {
#pragma acc loop vector private(cnt)
        for (int j = 0; j < M; j++) {
            cnt = 0;
            add_to(&cnt, j);
            add_to(&cnt, i);
            b[i][j] = cnt;
        }
    }
    /* global private */
#pragma acc parallel loop private(g) copy(a)
    for (int i = 0; i < N; i++) {
        float *p = &g;
        *p = a[i];
        scale(p, 0.5f);
        a[i] = g;
    }
    double s = 0;
    for (int i = 0; i < N; i++) { s += a[i]; for (int j = 0; j < M; j++) s += b[i][j]; }
    printf("%f %f %f\n", a[10], b[3][5], s);
    return 0;
}
