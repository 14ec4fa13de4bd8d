// §3.2.18: "On a non-shared memory device where the data is not present, memory is allocated on
// the device, and the data is copied to the newly allocated device memory ... a call to this
// routine starts a data lifetime". (acc_pcopyin is its short name.)
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float v[4] = {0.5f, 1.5f, 2.5f, 3.5f};
    acc_pcopyin(v, sizeof v);
    printf("present: %d\n", acc_is_present(v, sizeof v) != 0);
    float s = 0;
#pragma acc parallel loop present(v) reduction(+:s)
    for (int i = 0; i < 4; i++) s += v[i];
    acc_delete(v, sizeof v);
    printf("s = %.1f\n", s);
    return 0;
}
