// §2.7.10: "The private clause on a loop directive specifies that a copy of each item on the
// var-list will be created for each iteration of the associated loop or loops." A work array
// per iteration.
#include <stdio.h>
int main(void) {
    int tmp[3];
    int out[30];
#pragma acc parallel loop gang vector private(tmp) copyout(out)
    for (int i = 0; i < 30; i++) {
        tmp[0] = i;
        tmp[1] = i * 2;
        tmp[2] = i * 3;
        out[i] = tmp[0] + tmp[1] + tmp[2];
    }
    printf("%d %d %d\n", out[0], out[10], out[29]);
    return 0;
}
