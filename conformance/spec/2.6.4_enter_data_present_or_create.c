// accsim-flags: --strict-2.0
// §2.6.4/§2.6.5.11: enter data present_or_create allocates when absent (starting a lifetime that
// exit data ends) and does nothing when present.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
#pragma acc enter data present_or_create(a)
    printf("created: %d\n", acc_is_present(a, sizeof a) != 0);
#pragma acc parallel loop present(a)
    for (int i = 0; i < 4; i++) a[i] = 10 * (i + 1);
#pragma acc enter data pcreate(a)
#pragma acc exit data copyout(a)
    printf("%d %d %d %d present: %d\n", a[0], a[1], a[2], a[3], acc_is_present(a, sizeof a) != 0);
    return 0;
}
