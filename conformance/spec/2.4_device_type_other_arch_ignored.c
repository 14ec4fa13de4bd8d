// §2.4: "Clauses that follow a device_type clause up to the end of the directive or the next
// device_type clause apply only when compiling for the named accelerator device type." A clause
// for another architecture (radeon) does not apply; the clause before any device_type
// ("treated as if they followed a device_type clause with an asterisk") does.
#include <stdio.h>
int main(void) {
    int n = 0;
#pragma acc parallel reduction(+:n) num_gangs(3) device_type(radeon) num_gangs(7)
    {
        n += 1;
    }
    printf("gangs = %d\n", n);
    return 0;
}
