// §2.5.1: a scalar that appears in a data clause of an enclosing data construct is not
// firstprivate: the parallel region uses its device copy, which `copy` brings back at the end of
// the data region.
#include <stdio.h>
int main(void) {
    double level = 1.5;
#pragma acc data copy(level)
    {
#pragma acc parallel num_gangs(1)
        {
            level = level * 4.0;
        }
    }
    printf("level = %.1f\n", level);
    return 0;
}
