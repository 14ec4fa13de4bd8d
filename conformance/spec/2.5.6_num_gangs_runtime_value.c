// §2.5.6: "The value of the integer expression defines the number of parallel gangs that will
// execute the region." §2.5.1: the gangs execute the region redundantly (gang-redundant mode),
// so each adds 1 to its reduction copy (§2.5.11) and the sum is the number of gangs.
#include <stdio.h>
int main(int argc, char **argv) {
    (void)argv;
    int gangs = 4 + argc; /* 5 when run without arguments */
    int count = 0;
#pragma acc parallel num_gangs(gangs) reduction(+:count)
    count += 1;
    printf("gangs counted: %d\n", count);
    return 0;
}
