// Issue 17: a PGI 1.3 program that also uses OpenACC 2.0 directives (as codes ported halfway do,
// and as the PGI compilers that read 1.3 also read 2.0): `kernels loop`, `enter data` and
// `exit data` keep their 2.0 meaning beside `data region` and `region for`.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 300;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y) return 1;
    for (int i = 0; i < n; i++) { x[i] = i; y[i] = 0; }
#pragma acc enter data copyin(x[0:n])
#pragma acc data region copyout(y[0:n-1])
    {
#pragma acc region for parallel
        for (int i = 0; i < n; i++) y[i] = 2 * x[i];
#pragma acc kernels loop present(x[0:n], y[0:n])
        for (int i = 0; i < n; i++) y[i] += 1;
    }
#pragma acc exit data delete(x[0:n])
    printf("y[0] = %g, y[%d] = %g\n", y[0], n - 1, y[n - 1]);
    free(x);
    free(y);
    return 0;
}
