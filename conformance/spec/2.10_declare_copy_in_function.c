// §2.10: declare copy in a function behaves as a data construct around the body: the values are
// copied back when the function returns (its implicit data region ends, §2.6.2).
#include <stdio.h>
static int total_after(void) {
    int acc_buf[8];
#pragma acc declare copy(acc_buf)
    for (int i = 0; i < 8; i++) acc_buf[i] = i;
#pragma acc update device(acc_buf)
#pragma acc parallel loop
    for (int i = 0; i < 8; i++) acc_buf[i] *= 3;
#pragma acc update host(acc_buf)
    int s = 0;
    for (int i = 0; i < 8; i++) s += acc_buf[i];
    return s;
}
int main(void) {
    printf("sum = %d\n", total_after());
    return 0;
}
