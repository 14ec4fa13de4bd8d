// §2.11.1.4: "the implementation will generate code to conditionally perform the updates only
// when the condition evaluates to nonzero".
#include <stdio.h>
int main(void) {
    int a[2] = {0, 0};
    int doit = 0;
#pragma acc data copyin(a)
    {
#pragma acc parallel loop
        for (int i = 0; i < 2; i++) a[i] = 5;
#pragma acc update host(a) if(doit)
        printf("if(0): %d %d\n", a[0], a[1]); /* expect: stale-host-read */
        doit = 1;
#pragma acc update host(a) if(doit)
        printf("if(1): %d %d\n", a[0], a[1]);
    }
    return 0;
}
