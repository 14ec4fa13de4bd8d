// §2.11.1.1: "The local clause specifies that the variables, arrays or subarrays in the var-list
// are to be copied from the accelerator device memory to the local memory" (host is its
// synonym, §2.11.1.2).
#include <stdio.h>
int main(void) {
    double d[3] = {0, 0, 0};
#pragma acc data create(d)
    {
#pragma acc parallel loop
        for (int i = 0; i < 3; i++) d[i] = 1.5 * (i + 1);
#pragma acc update local(d)
        printf("%.1f %.1f %.1f\n", d[0], d[1], d[2]);
    }
    return 0;
}
