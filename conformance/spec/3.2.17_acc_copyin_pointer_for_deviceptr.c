// §3.2.17: "Pointers assigned from this function may be used in deviceptr clauses to tell the
// compiler that the pointer target is resident on the accelerator."
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
int main(void) {
    int n = 12;
    double *h = malloc(n * sizeof *h);
    for (int i = 0; i < n; i++) h[i] = i;
    double *d = (double *)acc_copyin(h, n * sizeof *h);
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++) d[i] += 0.5;
    acc_copyout(h, n * sizeof *h);
    printf("%.1f %.1f\n", h[0], h[11]);
    free(h);
    return 0;
}
