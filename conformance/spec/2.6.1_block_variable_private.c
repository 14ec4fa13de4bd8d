// §2.6.1: "Variables declared in a C block within a compute construct are predetermined to be
// private to the thread that executes the block." Each iteration's `t` is its own.
#include <stdio.h>
#define N 256
int main(void) {
    int a[N], b[N];
    for (int i = 0; i < N; i++) a[i] = i;
#pragma acc parallel loop gang vector copyin(a) copyout(b)
    for (int i = 0; i < N; i++) {
        int t = a[i];
        t = t * 3 + 1;
        b[i] = t;
    }
    printf("%d %d %d\n", b[0], b[100], b[255]);
    return 0;
}
