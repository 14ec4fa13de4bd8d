// §2.4: "Clauses that follow a device_type clause with an asterisk for an argument apply to any
// accelerator device type that was not named in any device_type clause on that directive."
// Each of the 5 gangs runs the region redundantly (§2.5.1) and adds 1 to its reduction copy.
#include <stdio.h>
int main(void) {
    int n = 0;
#pragma acc parallel reduction(+:n) device_type(*) num_gangs(5)
    {
        n += 1;
    }
    printf("gangs = %d\n", n);
    return 0;
}
