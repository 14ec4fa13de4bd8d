// §2.4: "The device_type clause may be abbreviated to dtype."
#include <stdio.h>
int main(void) {
    int n = 0;
#pragma acc parallel reduction(+:n) dtype(*) num_gangs(6)
    {
        n += 1;
    }
    printf("gangs = %d\n", n);
    return 0;
}
