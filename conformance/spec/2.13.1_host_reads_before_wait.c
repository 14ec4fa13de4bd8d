// §2.13.1: with async "the local thread continues with the code following the construct" --
// reading the results before the wait is an asynchronous race, which `accsim check` reports. (Only
// the value read after the wait is printed.)
#include <stdio.h>
int main(void) {
    int a[16];
    for (int i = 0; i < 16; i++) a[i] = 0;
#pragma acc parallel loop async(1) copy(a)
    for (int i = 0; i < 16; i++) a[i] = i + 1;
    int early = a[5]; /* expect: async-race */
#pragma acc wait(1)
    (void)early;
    printf("after wait: %d\n", a[5]);
    return 0;
}
