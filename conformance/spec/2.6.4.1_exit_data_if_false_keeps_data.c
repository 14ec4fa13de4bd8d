// §2.6.4.1: "When the condition in the if clause evaluates to zero in C or C++ ... no device
// memory will be allocated or deallocated, and no data will be moved." An `exit data` with a
// false if leaves the array present; a later one without if ends its lifetime.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[16];
    for (int i = 0; i < 16; i++) a[i] = i;
#pragma acc enter data copyin(a)
#pragma acc exit data delete(a) if(0)
    printf("after exit data if(0): %d\n", acc_is_present(a, sizeof a) != 0);
#pragma acc exit data delete(a)
    printf("after exit data: %d\n", acc_is_present(a, sizeof a) != 0);
    return 0;
}
