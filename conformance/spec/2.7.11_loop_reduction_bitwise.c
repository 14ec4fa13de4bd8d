// §2.7.11: &, | and ^ reductions over an unsigned array on a gang loop.
#include <stdio.h>
int main(void) {
    unsigned v[32];
    for (int i = 0; i < 32; i++) v[i] = 0xF0F0u | (1u << (i % 16));
    unsigned all = ~0u, any = 0, par = 0;
#pragma acc parallel loop gang copyin(v) reduction(&:all) reduction(|:any) reduction(^:par)
    for (int i = 0; i < 32; i++) {
        all &= v[i];
        any |= v[i];
        par ^= (unsigned)i;
    }
    printf("and = 0x%x or = 0x%x xor = %u\n", all, any, par);
    return 0;
}
