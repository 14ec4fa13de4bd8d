// §2.6.5.10: present_or_copyout on present data moves nothing: the values reach the host only
// through the enclosing data construct's copy at its end.
#include <stdio.h>
int main(void) {
    int b[4] = {0, 0, 0, 0};
#pragma acc data copy(b)
    {
#pragma acc parallel loop pcopyout(b)
        for (int i = 0; i < 4; i++) b[i] = i + 1;
        printf("inside: %d %d\n", b[0], b[3]); /* expect: stale-host-read */
    }
    printf("after: %d %d\n", b[0], b[3]);
    return 0;
}
