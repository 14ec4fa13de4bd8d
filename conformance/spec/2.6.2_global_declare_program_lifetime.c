// §2.6.2: "Static or global data created on the accelerator has a lifetime of the execution of
// the program": a global in a declare create directive is present from the start of main and in
// every function.
#include <stdio.h>
#include <openacc.h>
float table[64];
#pragma acc declare create(table)
static int check(void) { return acc_is_present(table, sizeof table) != 0; }
int main(void) {
    printf("in main: %d\n", acc_is_present(table, sizeof table) != 0);
    printf("in a function: %d\n", check());
    return 0;
}
