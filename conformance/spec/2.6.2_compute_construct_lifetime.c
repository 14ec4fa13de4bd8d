// §2.6.2: "When the program encounters a compute construct with explicit data clauses ... it
// creates a data region that has a lifetime of the compute construct." After the construct its
// data is no longer present.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int a[20];
    for (int i = 0; i < 20; i++) a[i] = i;
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 20; i++) a[i] += 1;
    printf("a[19] = %d, present after: %d\n", a[19], acc_is_present(a, sizeof a) != 0);
    return 0;
}
