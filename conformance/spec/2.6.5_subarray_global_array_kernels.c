// §2.6.5.2 with §2.5.2: a global array with a subarray in a kernels construct's copy clause; only
// that subarray is copied, the rest of the array keeps the host's values.
#include <stdio.h>
int g[12];
int main(void) {
    for (int i = 0; i < 12; i++) g[i] = i;
#pragma acc kernels copy(g[4:4])
    for (int i = 4; i < 8; i++) g[i] = -g[i];
    printf("%d %d %d %d\n", g[3], g[4], g[7], g[8]);
    return 0;
}
