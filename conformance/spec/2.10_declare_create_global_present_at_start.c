// §2.10: a declare directive at file scope gives the global a device copy for the whole program
// (§2.6.2: "the data lifetime ... for the duration of the program"), so it is present before any
// data construct; `update device` fills it and a compute construct uses it without a clause.
#include <stdio.h>
#include <openacc.h>
static int table[6];
#pragma acc declare create(table)
int main(void) {
    printf("present at start: %d\n", acc_is_present(table, sizeof table) != 0);
    for (int i = 0; i < 6; i++) table[i] = i * i;
#pragma acc update device(table)
    int s = 0;
#pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < 6; i++) s += table[i];
    printf("sum of squares: %d\n", s);
    return 0;
}
