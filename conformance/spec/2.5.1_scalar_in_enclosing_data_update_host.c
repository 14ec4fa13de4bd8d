// §2.5.1: a scalar in an enclosing data construct's copyin clause is not firstprivate in the
// parallel region: the region writes the device copy, which `update host` (§2.11.1) then reads.
#include <stdio.h>
int main(void) {
    float level = 2.0f;
#pragma acc data copyin(level)
    {
#pragma acc parallel num_gangs(1)
        {
            level = level + 0.5f;
        }
#pragma acc update host(level)
        printf("inside: %.1f\n", level);
    }
    return 0;
}
