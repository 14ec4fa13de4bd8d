// §2.6.4.1: "When the condition evaluates to nonzero in C or C++ ... the data will be allocated
// or deallocated and moved as specified." enter data create with a true if makes the array
// present; the kernel then uses that copy, and exit data copyout brings its values back.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int b[6] = {0};
    int use_gpu = 1;
#pragma acc enter data create(b) if(use_gpu)
    printf("present: %d\n", acc_is_present(b, sizeof b) != 0);
#pragma acc parallel loop present(b)
    for (int i = 0; i < 6; i++) b[i] = 7 * i;
#pragma acc exit data copyout(b) if(use_gpu)
    printf("%d %d %d\n", b[0], b[3], b[5]);
    return 0;
}
