// §2.10: declare create in a function: device memory for the function's lifetime, no copies.
// Values go between host and device only through update directives (§2.11.1).
#include <stdio.h>
static void run(void) {
    double scratch[5];
#pragma acc declare create(scratch)
#pragma acc parallel loop
    for (int i = 0; i < 5; i++) scratch[i] = i * 1.5;
#pragma acc update host(scratch)
    printf("%.1f %.1f\n", scratch[0], scratch[4]);
}
int main(void) {
    run();
    run();
    return 0;
}
