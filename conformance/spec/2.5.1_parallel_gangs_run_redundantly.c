// §2.5.1: "Unless there is an explicit loop directive within the parallel region, each gang will
// execute the code within the region redundantly." Each of 4 gangs adds 1 to its private
// reduction copy (§2.5.11), so the sum counts the gangs.
#include <stdio.h>
int main(void) {
    int gangs = 0;
#pragma acc parallel num_gangs(4) reduction(+:gangs)
    {
        gangs += 1;
    }
    printf("gangs = %d\n", gangs);
    return 0;
}
