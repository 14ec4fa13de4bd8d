// §3.2.24: acc_update_local "is equivalent to the update directive with a local clause": the
// device copy is copied to the local (host) memory.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {0, 0, 0, 0};
    acc_create(a, sizeof a);
#pragma acc parallel loop present(a)
    for (int i = 0; i < 4; i++) a[i] = 3 * i + 1;
    acc_update_local(a, sizeof a);
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    acc_delete(a, sizeof a);
    return 0;
}
