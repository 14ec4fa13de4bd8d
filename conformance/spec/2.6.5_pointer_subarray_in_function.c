// §2.6.5 restriction: "In C and C++, the length for a dynamically allocated array must be
// explicitly specified." The usual shape: a function taking array parameters maps x[0:n].
#include <stdio.h>
#include <stdlib.h>
static void saxpy(int n, float a, const float *x, float *y) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
int main(void) {
    int n = 1 << 10;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) { x[i] = 1.0f; y[i] = (float)i; }
    saxpy(n, 2.0f, x, y);
    printf("%.1f %.1f\n", y[0], y[n - 1]);
    free(x);
    free(y);
    return 0;
}
