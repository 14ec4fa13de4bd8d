// §2.7.11: the everyday reduction: a dot product of two heap arrays passed to a function, with
// data clauses on the pointer names.
#include <stdio.h>
#include <stdlib.h>
static double dot(const double *x, const double *y, int n) {
    double s = 0.0;
#pragma acc parallel loop reduction(+:s) copyin(x[0:n], y[0:n])
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}
int main(void) {
    int n = 1000;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) { x[i] = 1.0; y[i] = i % 10; }
    printf("dot = %.1f\n", dot(x, y, n));
    free(x);
    free(y);
    return 0;
}
