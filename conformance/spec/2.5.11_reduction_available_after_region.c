// §2.5.11: "The reduction result is available after the region." A gang loop sums 1..1000 and
// the host uses the result at once.
#include <stdio.h>
int main(void) {
    long total = 0;
#pragma acc parallel num_gangs(8) reduction(+:total)
    {
#pragma acc loop gang reduction(+:total)
        for (int i = 1; i <= 1000; i++) total += i;
    }
    printf("total = %ld, twice = %ld\n", total, 2 * total);
    return 0;
}
