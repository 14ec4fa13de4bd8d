// §3.2.22: "A call to this routine deallocates the accelerator memory corresponding to the
// specified local memory." acc_delete copies nothing back: the host keeps its own values.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int v[4] = {1, 2, 3, 4};
    acc_copyin(v, sizeof v);
#pragma acc parallel loop present(v)
    for (int i = 0; i < 4; i++) v[i] = -1;
    acc_delete(v, sizeof v);
    printf("%d %d %d %d\n", v[0], v[1], v[2], v[3]); /* expect: stale-host-read */
    return 0;
}
