// §2.7.3: in a kernels region, an argument to worker "specifies how many workers to use to
// execute the iterations of this loop."
#include <stdio.h>
int main(void) {
    float m[8][16];
#pragma acc kernels copyout(m)
    {
#pragma acc loop gang
        for (int i = 0; i < 8; i++) {
#pragma acc loop worker(num:4)
            for (int j = 0; j < 16; j++) m[i][j] = i + j / 16.0f;
        }
    }
    printf("%.4f %.4f\n", m[0][1], m[7][15]);
    return 0;
}
