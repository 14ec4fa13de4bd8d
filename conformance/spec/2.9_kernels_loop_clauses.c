// §2.9: "any clause allowed on a kernels or loop directive are allowed on a kernels loop
// directive": data clauses and if (kernels) with independent and gang (loop).
#include <stdio.h>
int main(void) {
    int n = 50;
    double x[50], y[50];
    for (int i = 0; i < n; i++) x[i] = i;
#pragma acc kernels loop independent gang copyin(x[0:n]) copyout(y[0:n]) if(n > 10)
    for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
    printf("%.1f %.1f\n", y[7], y[49]);
    return 0;
}
