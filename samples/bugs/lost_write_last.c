/* Writing a scalar in a compute construct without a data clause: the value stays on the device. */
#include <stdio.h>
int main(void) {
    int a[50], last = -1;
    for (int i = 0; i < 50; i++) a[i] = i % 7;
#pragma acc parallel copyin(a) num_gangs(1)
    {
        last = a[49]; /* expect: lost-write */
    }
    printf("last = %d\n", last);
    return 0;
}
