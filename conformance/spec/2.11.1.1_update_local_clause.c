// §2.11.1.1: "The local clause specifies that the variables, arrays or subarrays in the var-list
// are to be copied from the accelerator device memory to the local memory for a non-shared
// memory accelerator." (gcc, which follows the 2.0 final text, knows the clause as `host`,
// its synonym, §2.11.1.2.)
#include <stdio.h>
int main(void) {
    int a[3] = {0, 0, 0};
#pragma acc data copyin(a)
    {
#pragma acc parallel loop present(a)
        for (int i = 0; i < 3; i++) a[i] = 10 + i;
#pragma acc update local(a)
    }
    printf("%d %d %d\n", a[0], a[1], a[2]);
    return 0;
}
