// §2.6.4 with §2.6.5: enter data and exit data take subarrays; a dynamically allocated array
// needs its length (§2.6.5 restriction). Only x[10:20] is mapped and copied back.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 40;
    int *x = malloc(n * sizeof *x);
    for (int i = 0; i < n; i++) x[i] = i;
#pragma acc enter data copyin(x[10:20])
#pragma acc parallel loop present(x[10:20])
    for (int i = 10; i < 30; i++) x[i] = 1000 + i;
#pragma acc exit data copyout(x[10:20])
    printf("%d %d %d %d\n", x[9], x[10], x[29], x[30]);
    free(x);
    return 0;
}
