// Issue 17 item 4: PGI 1.3 `host` loops nested deeper than their region's block, inside an
// `if`, a nested block and a `while` loop of the region, run on the host (1.3 §2.4.1.1), the
// statements around them on the host too and the device code beside them in kernels of their
// own, with the updates of the data each host loop uses. accsim split a region only at the
// host loops of its own block and ran these in the kernel, by every gang.
#include <stdio.h>

#define N 512

int main(void) {
    static float a[N], b[N];
    float sum = 0;
    int rounds = 0, check = 1;
#pragma acc region copy(a) copyout(b)
    {
#pragma acc for parallel
        for (int i = 0; i < N; i++)
            a[i] = (float)(i % 9);
        if (check) {
#pragma acc for host
            for (int i = 1; i < N; i++)
                a[i] += a[i - 1];
        }
        while (rounds < 2) {
            {
#pragma acc for parallel
                for (int i = 0; i < N; i++)
                    b[i] = a[i] * 0.5f + rounds;
#pragma acc for host
                for (int i = 0; i < N; i++)
                    sum += b[i];
            }
            rounds++;
        }
    }
    printf("%g %g %g %d\n", a[N - 1], b[N - 1], sum, rounds);
    return 0;
}
