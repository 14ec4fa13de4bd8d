// Issue 17 (found on a PGI 1.3 sample, samples/pgi13/13): a local array used only inside a
// `kernels` construct but named by its data clause (`create(s)`; a 1.3 region's implicit
// `copy(s)`, or a `declare device_resident`) is declared outside the region: the region is still
// split into one kernel per loop nest (§2.5.2), so the second loop, which reads a neighbour
// another gang wrote in the first, sees every write. It was kept as one kernel (as for a
// variable declared inside the region), and gangs read neighbours not yet written.
#include <stdio.h>

#define N 512

int main(void) {
    float s[N];
    static float o[N];
    #pragma acc kernels copyout(o) create(s)
    {
        #pragma acc loop gang
        for (int i = 0; i < N; i++) s[i] = 1;
        #pragma acc loop gang
        for (int i = 0; i < N; i++) o[i] = (i + 1 < N ? s[i + 1] : 0) + s[i];
    }
    float t = 0;
    for (int i = 0; i < N; i++) t += o[i];
    printf("%g\n", t);
    return 0;
}
