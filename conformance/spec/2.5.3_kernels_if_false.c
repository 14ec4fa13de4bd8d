// §2.5.3: the if clause on a kernels construct: a zero condition runs the construct on the
// encountering thread, so a create'd array's host copy is what the loop writes.
#include <stdio.h>
int main(void) {
    int n = 6;
    int b[6] = {0, 0, 0, 0, 0, 0};
#pragma acc kernels if(n > 100) create(b)
    for (int i = 0; i < 6; i++) b[i] = i + 1;
    printf("b = %d %d %d\n", b[0], b[2], b[5]);
#pragma acc kernels if(n > 1) create(b)
    for (int i = 0; i < 6; i++) b[i] = -7;
    printf("b = %d %d %d\n", b[0], b[2], b[5]); /* expect: stale-host-read */
    return 0;
}
