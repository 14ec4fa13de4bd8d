// §2.5.9: "a copy of each item on the list will be created for each parallel gang". Each gang
// uses its copy of `tmp` in a gang loop; the host variable is untouched.
#include <stdio.h>
int main(void) {
    int tmp = -5;
    int out[40];
#pragma acc parallel num_gangs(4) private(tmp) copyout(out)
    {
#pragma acc loop gang
        for (int i = 0; i < 40; i++) {
            tmp = i * 3;
            out[i] = tmp + 1;
        }
    }
    printf("out = %d %d %d, host tmp = %d\n", out[0], out[20], out[39], tmp);
    return 0;
}
