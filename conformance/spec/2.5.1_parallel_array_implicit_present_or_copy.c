// §2.5.1: "An array ... referenced in the parallel construct that does not appear in a data
// clause for the construct or any enclosing data construct will be treated as if it appeared in
// a present_or_copy clause". Not present: copied in and back out.
#include <stdio.h>
int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = i;
#pragma acc parallel loop
    for (int i = 0; i < 10; i++) a[i] = a[i] * a[i];
    printf("%d %d %d\n", a[1], a[5], a[9]);
    return 0;
}
