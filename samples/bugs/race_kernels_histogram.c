/* `independent` promises the iterations do not conflict, but several update the same bin. */
#include <stdio.h>
int main(void) {
    int key[100], hist[4] = {0, 0, 0, 0};
    for (int i = 0; i < 100; i++) key[i] = (i * 7) % 4;
#pragma acc kernels copyin(key) copy(hist)
    {
#pragma acc loop independent gang vector
        for (int i = 0; i < 100; i++)
            hist[key[i]] += 1; /* expect: data-race */
    }
    printf("%d %d %d %d\n", hist[0], hist[1], hist[2], hist[3]);
    return 0;
}
