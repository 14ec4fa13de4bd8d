// §2.10 at global scope with copyin: the program's initial values of the global are on the
// device for the whole program.
#include <stdio.h>
int weights[5] = {5, 4, 3, 2, 1};
#pragma acc declare copyin(weights)
int main(void) {
    int out[5];
#pragma acc parallel loop present(weights) copyout(out)
    for (int i = 0; i < 5; i++) out[i] = weights[i] * weights[i];
    printf("%d %d %d\n", out[0], out[2], out[4]);
    return 0;
}
