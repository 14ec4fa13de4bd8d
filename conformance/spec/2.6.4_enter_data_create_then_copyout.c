// §2.6.5.5: enter data create allocates without copying; the device computes every element and
// exit data copyout (§2.6.5.4) brings them to the host.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 64;
    long *sq = malloc(n * sizeof *sq);
    for (int i = 0; i < n; i++) sq[i] = -1;
#pragma acc enter data create(sq[0:n])
#pragma acc parallel loop present(sq[0:n])
    for (int i = 0; i < n; i++) sq[i] = (long)i * i;
#pragma acc exit data copyout(sq[0:n])
    printf("%ld %ld %ld\n", sq[0], sq[8], sq[63]);
    free(sq);
    return 0;
}
