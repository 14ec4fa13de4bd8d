// §2.5.1: "One worker in each gang begins executing the code in the structured block of the
// construct." With 3 gangs of 8 workers, code outside any loop runs once per gang, not per
// worker.
#include <stdio.h>
int main(void) {
    int runs = 0;
#pragma acc parallel num_gangs(3) num_workers(8) vector_length(32) reduction(+:runs)
    {
        runs += 1;
    }
    printf("runs = %d\n", runs);
    return 0;
}
