// §3.2.19: acc_create "returns a pointer to the allocated space, as with acc_malloc. Pointers
// assigned from this function may be used in deviceptr clauses to tell the compiler that the
// pointer target is resident on the accelerator." The kernel fills the device copy through that
// pointer; acc_copyout (§3.2.21) brings it to the host array.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int h[8] = {0};
    int *d = (int *)acc_create(h, sizeof h);
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < 8; i++) d[i] = i * i;
    acc_copyout(h, sizeof h);
    printf("%d %d %d\n", h[1], h[4], h[7]);
    return 0;
}
