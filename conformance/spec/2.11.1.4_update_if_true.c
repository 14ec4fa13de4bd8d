// §2.11.1.4: "When an if clause appears, the implementation will generate code to conditionally
// perform the updates only when the condition evaluates to nonzero in C or C++". With a true
// condition the device values are copied back.
#include <stdio.h>
int main(void) {
    int x[2] = {0, 0};
    int want = 1;
#pragma acc data copyin(x)
    {
#pragma acc parallel num_gangs(1) present(x)
        {
            x[0] = 11;
            x[1] = 22;
        }
#pragma acc update host(x) if(want)
    }
    printf("%d %d\n", x[0], x[1]);
    return 0;
}
