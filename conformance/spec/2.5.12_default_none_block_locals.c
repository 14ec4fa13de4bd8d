// §2.5.12 with §2.6.1: variables declared in a block inside the construct are predetermined
// private, so default(none) does not ask for them.
#include <stdio.h>
int main(void) {
    int a[6] = {1, 2, 3, 4, 5, 6}, b[6];
#pragma acc parallel loop default(none) copyin(a) copyout(b)
    for (int i = 0; i < 6; i++) {
        int sq = a[i] * a[i];
        int twice = 2 * sq;
        b[i] = twice;
    }
    printf("%d %d\n", b[0], b[5]);
    return 0;
}
