// §2.6.4: "At an enter data directive, data will be allocated in the device memory and optionally
// copied from the host"; copyin copies the host values (§2.6.5.3), which a later compute
// construct reads through present.
#include <stdio.h>
int main(void) {
    double w[10], r[10];
    for (int i = 0; i < 10; i++) w[i] = 0.5 * i;
#pragma acc enter data copyin(w)
#pragma acc parallel loop present(w) copyout(r)
    for (int i = 0; i < 10; i++) r[i] = w[i] + 1.0;
#pragma acc exit data delete(w)
    printf("%.1f %.1f\n", r[0], r[9]);
    return 0;
}
