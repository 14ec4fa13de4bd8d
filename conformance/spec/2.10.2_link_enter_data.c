// §2.10.2: the data lifetime of a linked global may also come "from the execution of the enter
// data directive that allocates the data until an exit data directive deallocates it".
#include <stdio.h>
int bias[3] = {100, 200, 300};
#pragma acc declare link(bias)
#pragma acc routine seq
static int shifted(int v, int k) { return v + bias[k]; }
int main(void) {
    int out[6];
#pragma acc enter data copyin(bias)
#pragma acc parallel loop copyout(out)
    for (int i = 0; i < 6; i++) out[i] = shifted(i, i % 3);
#pragma acc exit data delete(bias)
    printf("%d %d %d\n", out[0], out[4], out[5]);
    return 0;
}
