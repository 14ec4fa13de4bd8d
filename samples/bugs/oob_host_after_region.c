/* An off-by-one loop on the host after the region. */
#include <stdio.h>
int main(void) {
    int c[10];
#pragma acc parallel loop copyout(c)
    for (int i = 0; i < 10; i++) c[i] = i * i;
    int s = 0;
    for (int i = 0; i <= 10; i++)
        s += c[i]; /* expect: out-of-bounds */
    printf("s = %d\n", s);
    return 0;
}
