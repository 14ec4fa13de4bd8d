// §2.7.9: "In a kernels construct, the independent clause tells the implementation that the
// iterations of this loop are data-independent with respect to each other." Indirect writes
// through a permutation (which analysis cannot prove independent) are declared so.
#include <stdio.h>
int main(void) {
    int perm[12], out[12];
    for (int i = 0; i < 12; i++) perm[i] = (i * 5) % 12;
#pragma acc kernels copyin(perm) copyout(out)
    {
#pragma acc loop independent
        for (int i = 0; i < 12; i++) out[perm[i]] = i;
    }
    for (int i = 0; i < 12; i++) printf("%d ", out[i]);
    printf("\n");
    return 0;
}
