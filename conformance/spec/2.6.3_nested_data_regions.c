// §2.6.3: data regions nest; an inner data construct adds `b` while `a` stays mapped by the outer
// one. `b` (copyout) comes back when the inner region ends, `a` when the outer one does.
#include <stdio.h>
int main(void) {
    int a[6], b[6];
    for (int i = 0; i < 6; i++) a[i] = i;
#pragma acc data copy(a)
    {
#pragma acc data copyout(b)
        {
#pragma acc parallel loop
            for (int i = 0; i < 6; i++) { b[i] = a[i] * a[i]; a[i] = -1; }
        }
        printf("inner done: b[5] = %d\n", b[5]);
    }
    printf("outer done: a[5] = %d\n", a[5]);
    return 0;
}
