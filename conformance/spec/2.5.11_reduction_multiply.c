// §2.5.11: operator `*`, initialisation value 1. Each of 4 gangs doubles its copy (1 -> 2); the
// product 16 is combined with the original 3.
#include <stdio.h>
int main(void) {
    long p = 3;
#pragma acc parallel num_gangs(4) reduction(*:p)
    {
        p *= 2;
    }
    printf("p = %ld\n", p);
    return 0;
}
