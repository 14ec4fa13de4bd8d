// Issue 17 item 2, the parallel form: an array declared before a `parallel` construct and used
// only inside it has one device copy that all gangs share (§2.6: `present_or_copy` by
// default), so the second gang loop, which reads elements other gangs write in the first with
// no synchronisation between them (gangs never synchronise inside a kernel, §1.2), races.
// accsim gave each gang its own `b` (a variable of the region, as if declared inside it): the
// program printed zeros and `check` found nothing.
#include <stdio.h>

#define N 1000

int main(void) {
    float a[N], b[N], d[N];
    int i;
    for (i = 0; i < N; i++) a[i] = i + 1;
#pragma acc parallel copyin(a) copyout(d) num_gangs(4)
    {
#pragma acc loop gang
        for (i = 0; i < N; i++) b[i] = a[i]; /* expect: data-race */
#pragma acc loop gang
        for (i = 0; i < N; i++) d[i] = b[N - 1 - i]; /* expect: data-race */
    }
    printf("%g\n", d[N / 2]);
    return 0;
}
