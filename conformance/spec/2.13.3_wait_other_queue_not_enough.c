// §2.13.3: waiting for queue 1 does not wait for queue 2; reading queue 2's results after only
// wait(1) is an asynchronous race that `accsim check` reports.
#include <stdio.h>
int main(void) {
    int a[8], b[8];
#pragma acc parallel loop async(1) copyout(a)
    for (int i = 0; i < 8; i++) a[i] = i;
#pragma acc parallel loop async(2) copyout(b)
    for (int i = 0; i < 8; i++) b[i] = -i;
#pragma acc wait(1)
    int early = b[3]; /* expect: async-race */
#pragma acc wait(2)
    (void)early;
    printf("%d %d\n", a[3], b[3]);
    return 0;
}
