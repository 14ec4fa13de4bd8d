// §2.6.2: "executes a call to a runtime API acc_copyin or acc_create routine, the program enters a
// data lifetime ... until ... a runtime API acc_copyout or acc_delete routine is called".
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[10], b[10];
    for (int i = 0; i < 10; i++) a[i] = i;
    acc_copyin(a, sizeof a);
    acc_create(b, sizeof b);
    printf("present: %d %d\n", acc_is_present(a, sizeof a) != 0, acc_is_present(b, sizeof b) != 0);
#pragma acc parallel loop present(a, b)
    for (int i = 0; i < 10; i++) b[i] = a[i] + 100;
    acc_copyout(b, sizeof b);
    acc_delete(a, sizeof a);
    printf("present: %d %d, b[9] = %d\n", acc_is_present(a, sizeof a) != 0, acc_is_present(b, sizeof b) != 0, b[9]);
    return 0;
}
