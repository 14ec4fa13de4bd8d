// §2.6.2: data created by an enter data directive "has a lifetime from when the directive is
// executed ... until an exit data directive is executed".
#include <stdio.h>
#include <openacc.h>
int main(void) {
    double v[50];
    for (int i = 0; i < 50; i++) v[i] = i;
#pragma acc enter data copyin(v)
    printf("after enter: %d\n", acc_is_present(v, sizeof v) != 0);
#pragma acc parallel loop present(v)
    for (int i = 0; i < 50; i++) v[i] *= 2.0;
    printf("still present: %d\n", acc_is_present(v, sizeof v) != 0);
#pragma acc exit data copyout(v)
    printf("after exit: %d, v[49] = %.1f\n", acc_is_present(v, sizeof v) != 0, v[49]);
    return 0;
}
