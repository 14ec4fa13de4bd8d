// §2.13.3: "If there are no wait argument expressions and no async clause, the host thread will
// wait until all operations enqueued by this host thread on any device activity queue have
// completed."
#include <stdio.h>
int main(void) {
    int a[10], b[10], c[10];
#pragma acc parallel loop async(1) copyout(a)
    for (int i = 0; i < 10; i++) a[i] = i;
#pragma acc parallel loop async(2) copyout(b)
    for (int i = 0; i < 10; i++) b[i] = 2 * i;
#pragma acc parallel loop async(3) copyout(c)
    for (int i = 0; i < 10; i++) c[i] = 3 * i;
#pragma acc wait
    printf("%d %d %d\n", a[9], b[9], c[9]);
    return 0;
}
