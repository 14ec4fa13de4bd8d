// §2.9: "The associated structured block is the loop which must immediately follow the directive.
// Any of the loop clauses may appear." `kernels loop private(t)` gives each iteration its own `t`
// (§2.7.10), as the loop directive would.
#include <stdio.h>
#define N 40
int main(void) {
    static int a[N], b[N];
    int t = -7;
    for (int i = 0; i < N; i++) a[i] = i;
#pragma acc kernels loop private(t) copyin(a) copyout(b)
    for (int i = 0; i < N; i++) {
        t = a[i] * 3;
        b[i] = t + 1;
    }
    printf("b[0] = %d, b[39] = %d, t = %d\n", b[0], b[39], t);
    return 0;
}
