// §2.5.6: "The value of the integer expression defines the number of parallel gangs that will
// execute the region." The expression is evaluated at run time.
#include <stdio.h>
int main(void) {
    int base = 3;
    for (int k = 1; k <= 3; k++) {
        int n = 0;
#pragma acc parallel num_gangs(base * k) reduction(+:n)
        {
            n += 1;
        }
        printf("num_gangs(%d): %d\n", base * k, n);
    }
    return 0;
}
