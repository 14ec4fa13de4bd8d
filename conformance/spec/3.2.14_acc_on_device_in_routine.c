// §3.2.14: acc_on_device in a routine called from both the host and a compute region chooses the
// path for where it runs.
#include <stdio.h>
#include <openacc.h>
#pragma acc routine seq
static int where(void) { return acc_on_device(acc_device_host) ? 1 : 2; }
int main(void) {
    int w[3];
#pragma acc parallel loop copyout(w)
    for (int i = 0; i < 3; i++) w[i] = where();
    printf("device: %d %d %d  host: %d\n", w[0], w[1], w[2], where());
    return 0;
}
