// §2.6.2: a dynamic data lifetime is not bound to a region: entered in one function, used in a
// second, ended in a third.
#include <stdio.h>
#include <stdlib.h>
static void setup(float *x, int n) {
#pragma acc enter data copyin(x[0:n])
}
static void scale(float *x, int n, float f) {
#pragma acc parallel loop present(x[0:n])
    for (int i = 0; i < n; i++) x[i] *= f;
}
static void finish(float *x, int n) {
#pragma acc exit data copyout(x[0:n])
}
int main(void) {
    int n = 100;
    float *x = malloc(n * sizeof *x);
    for (int i = 0; i < n; i++) x[i] = 1.0f;
    setup(x, n);
    scale(x, n, 3.0f);
    scale(x, n, 0.5f);
    finish(x, n);
    printf("x[0] = %.2f x[99] = %.2f\n", x[0], x[99]);
    free(x);
    return 0;
}
