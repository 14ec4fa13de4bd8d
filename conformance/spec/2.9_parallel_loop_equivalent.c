// §2.9: "The meaning is identical to explicitly specifying a parallel or kernels directive
// containing a loop directive." The combined and the explicit forms give the same results.
#include <stdio.h>
int main(void) {
    int a[64], b[64];
    long s1 = 0, s2 = 0;
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma acc parallel loop gang vector copyin(a) copyout(b) reduction(+:s1)
    for (int i = 0; i < 64; i++) { b[i] = a[i] * 3; s1 += b[i]; }
#pragma acc parallel copyin(a) copyout(b) reduction(+:s2)
    {
#pragma acc loop gang vector reduction(+:s2)
        for (int i = 0; i < 64; i++) { b[i] = a[i] * 3; s2 += b[i]; }
    }
    printf("s1 = %ld s2 = %ld b[63] = %d\n", s1, s2, b[63]);
    return 0;
}
