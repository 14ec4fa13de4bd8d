// §2.6.3.1 with §2.5.1: a data construct with a false if clause moves nothing, so the compute
// construct inside maps the array itself (implicit present_or_copy) and the result comes back.
#include <stdio.h>
int main(void) {
    int a[5] = {1, 1, 1, 1, 1};
#pragma acc data copyin(a) if(0)
    {
#pragma acc parallel loop
        for (int i = 0; i < 5; i++) a[i] = i * 7;
    }
    printf("%d %d %d\n", a[0], a[2], a[4]);
    return 0;
}
