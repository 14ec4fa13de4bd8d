// §2.6.4.1: "When the condition in the if clause evaluates to zero ... no device memory will be
// allocated or deallocated, and no data will be moved."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float f[16];
    int on = 0;
#pragma acc enter data create(f) if(on)
    printf("after enter if(0): %d\n", acc_is_present(f, sizeof f) != 0);
    on = 1;
#pragma acc enter data create(f) if(on)
    printf("after enter if(1): %d\n", acc_is_present(f, sizeof f) != 0);
    on = 0;
#pragma acc exit data delete(f) if(on)
    printf("after exit if(0): %d\n", acc_is_present(f, sizeof f) != 0);
    on = 1;
#pragma acc exit data delete(f) if(on)
    printf("after exit if(1): %d\n", acc_is_present(f, sizeof f) != 0);
    return 0;
}
