// §2.6.5.7: present applies to scalars too: the scalar mapped by the enclosing data construct is
// used (and updated) by the region, and copied back at the data construct's end.
#include <stdio.h>
int main(void) {
    double energy = 1.5;
#pragma acc data copy(energy)
    {
#pragma acc parallel num_gangs(1) present(energy)
        {
            energy = energy * 4.0;
        }
    }
    printf("energy = %.1f\n", energy);
    return 0;
}
