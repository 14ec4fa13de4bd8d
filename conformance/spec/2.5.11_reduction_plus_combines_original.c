// §2.5.11: "At the end of the region, the values for each gang are combined using the reduction
// operator, and the result combined with the value of the original variable and stored in the
// original variable." Four gangs each add 2 to a copy initialised to 0; the original was 10.
#include <stdio.h>
int main(void) {
    int s = 10;
#pragma acc parallel num_gangs(4) reduction(+:s)
    {
        s += 2;
    }
    printf("s = %d\n", s);
    return 0;
}
