// §2.5.11: "For max and min reductions, the initialization values are the least representable
// value and the largest representable value for the variable's data type". Each gang's copy
// starts there, takes 10, and is combined with the original value.
#include <stdio.h>
int main(void) {
    int hi1 = 50, hi2 = -3, lo1 = -50, lo2 = 3;
#pragma acc parallel num_gangs(3) reduction(max:hi1, hi2) reduction(min:lo1, lo2)
    {
        hi1 = hi1 > 10 ? hi1 : 10;
        hi2 = hi2 > 10 ? hi2 : 10;
        lo1 = lo1 < 10 ? lo1 : 10;
        lo2 = lo2 < 10 ? lo2 : 10;
    }
    printf("max: %d %d\nmin: %d %d\n", hi1, hi2, lo1, lo2);
    return 0;
}
