// §2.6.5.8: "If the data is not present, the program behaves as with the copy clause."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
#pragma acc parallel loop present_or_copy(a)
    for (int i = 0; i < 4; i++) a[i] *= 5;
    printf("%d %d, present after: %d\n", a[0], a[3], acc_is_present(a, sizeof a) != 0);
    return 0;
}
