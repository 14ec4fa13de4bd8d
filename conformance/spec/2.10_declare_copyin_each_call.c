// §2.10 with §2.6.2: the implicit data region of a declare directive in a function is created
// each time the function is called, so declare copyin copies the values the array has at that
// call (here set by its initialiser).
#include <stdio.h>
static int sum_on_device(int start) {
    int w[2] = {start, start + 1};
#pragma acc declare copyin(w)
    int r[1] = {0};
#pragma acc parallel num_gangs(1) copyout(r)
    {
        r[0] = w[0] + w[1];
    }
    return r[0];
}
int main(void) {
    printf("%d %d %d\n", sum_on_device(1), sum_on_device(10), sum_on_device(-4));
    return 0;
}
