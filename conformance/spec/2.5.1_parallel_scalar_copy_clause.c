// §2.5.1 with §2.6.5.2: a scalar named in a copy clause on the parallel construct is not
// firstprivate; the value assigned on the device is copied back.
#include <stdio.h>
int main(void) {
    long flag = 0;
#pragma acc parallel num_gangs(1) copy(flag)
    {
        flag = 77;
    }
    printf("flag = %ld\n", flag);
    return 0;
}
