// §2.5.10: "the copy will be initialized with the value of that item on the host when the
// parallel construct is encountered." Changes on the device do not come back.
#include <stdio.h>
int main(void) {
    int offset = 1000;
    int out[8];
#pragma acc parallel num_gangs(2) firstprivate(offset) copyout(out)
    {
#pragma acc loop gang
        for (int i = 0; i < 8; i++) out[i] = offset + i;
        offset = 0;
    }
    printf("out = %d %d, host offset = %d\n", out[0], out[7], offset);
    return 0;
}
