// §2.5.11: operators `&` (initial ~0), `|` (initial 0) and `^` (initial 0) on the parallel
// construct, combined with the originals.
#include <stdio.h>
int main(void) {
    unsigned band = 0xFFu, bor = 0x01u, bxor = 0x3u;
#pragma acc parallel num_gangs(3) reduction(&:band) reduction(|:bor) reduction(^:bxor)
    {
        band &= 0x0F0u;
        bor |= 0x10u;
        bxor ^= 0x5u;
    }
    printf("and = 0x%x or = 0x%x xor = 0x%x\n", band, bor, bxor);
    return 0;
}
