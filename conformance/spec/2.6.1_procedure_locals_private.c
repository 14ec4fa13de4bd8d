// §2.6.1: "Variables declared in procedures called from a compute construct are predetermined to
// be private to the thread that executes the procedure call."
#include <stdio.h>
#pragma acc routine seq
static int digit_sum(int v) {
    int s = 0;
    while (v > 0) { s += v % 10; v /= 10; }
    return s;
}
int main(void) {
    int out[200];
#pragma acc parallel loop copyout(out)
    for (int i = 0; i < 200; i++) out[i] = digit_sum(i);
    printf("%d %d %d\n", out[9], out[99], out[199]);
    return 0;
}
