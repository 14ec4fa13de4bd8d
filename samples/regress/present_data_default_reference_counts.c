// Issue 12 (async2): accsim's default data lifetimes are OpenACC 2.5's dynamic reference counts
// (DESIGN.md), where OpenACC 2.0 makes acc_copyin/acc_create of present data a runtime error
// (§3.2.17, §3.2.19) and lets `enter data pcreate` of present data take no action (§2.6.5.11);
// those 2.0 rules are behind --strict-2.0 (conformance/spec/3.2.17_acc_copyin_already_present,
// 3.2.19_acc_create_already_present, 2.6.4_enter_data_present_or_create). By default each such
// call or clause counts a reference, and the data leaves with the last exit.
#include <stdio.h>
#include <openacc.h>

int main(void) {
    int a[4] = {1, 2, 3, 4};
    int b[4] = {0};
#pragma acc enter data copyin(a)
    acc_copyin(a, sizeof a); /* a second reference */
    acc_create(b, sizeof b);
    acc_create(b, sizeof b);
#pragma acc enter data pcreate(b) /* a third */
#pragma acc parallel loop present(a, b)
    for (int i = 0; i < 4; i++)
        b[i] = 10 * a[i];
#pragma acc exit data copyout(a, b)
    printf("after one exit: a %d, b %d\n", acc_is_present(a, sizeof a) != 0, acc_is_present(b, sizeof b) != 0);
    acc_copyout(a, sizeof a);
    acc_copyout(b, sizeof b);
    printf("after two: a %d, b %d\n", acc_is_present(a, sizeof a) != 0, acc_is_present(b, sizeof b) != 0);
#pragma acc exit data copyout(b)
    printf("after three: b %d; b = %d %d %d %d\n", acc_is_present(b, sizeof b) != 0, b[0], b[1], b[2], b[3]);
    return 0;
}
