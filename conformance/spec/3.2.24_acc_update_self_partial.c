// §3.2.24 (acc_update_self, the routine's OpenACC 2.0 final name): only the bytes named are
// copied to the host.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[5] = {0, 0, 0, 0, 0};
    acc_copyin(a, sizeof a);
#pragma acc parallel loop present(a)
    for (int i = 0; i < 5; i++) a[i] = 5;
    acc_update_self(&a[3], 2 * sizeof(int));
    printf("%d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]); /* expect: stale-host-read */
    acc_delete(a, sizeof a);
    return 0;
}
