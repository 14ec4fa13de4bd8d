// §2.12.1.4: "The seq clause specifies that the procedure does not contain nor does it call
// another procedure that contains a loop with a gang, worker or vector clause ... A call to this
// procedure may appear in any mode." Called from a vector loop, each lane runs it whole.
#include <stdio.h>
#pragma acc routine seq
static int digits(int x) {
    int d = 1;
    while (x >= 10) {
        x /= 10;
        d++;
    }
    return d;
}
int main(void) {
    static int n[200];
#pragma acc parallel loop gang vector copyout(n)
    for (int i = 0; i < 200; i++) n[i] = digits(i * 7);
    long s = 0;
    for (int i = 0; i < 200; i++) s += n[i];
    printf("digits of 7*199: %d, total %ld\n", n[199], s);
    return 0;
}
