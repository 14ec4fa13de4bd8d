// §2.5.12: with every variable in a data clause (arrays in copyin/copyout, the scalar in
// firstprivate) and the loop variable predetermined private (§2.6.1), default(none) is satisfied.
#include <stdio.h>
int main(void) {
    int n = 8;
    int a[8], b[8];
    for (int i = 0; i < 8; i++) a[i] = i;
#pragma acc parallel loop default(none) copyin(a) copyout(b) firstprivate(n)
    for (int i = 0; i < n; i++) b[i] = a[i] * n;
    printf("%d %d\n", b[1], b[7]);
    return 0;
}
