// §3.2.22: "A call to this routine deallocates the accelerator memory corresponding to the
// specified local memory" -- without copying anything back.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[3] = {7, 8, 9};
    acc_copyin(a, sizeof a);
#pragma acc parallel loop present(a)
    for (int i = 0; i < 3; i++) a[i] = 0;
    acc_delete(a, sizeof a);
    printf("%d %d %d present: %d\n", a[0], a[1], a[2], acc_is_present(a, sizeof a) != 0); /* expect: stale-host-read */
    return 0;
}
