// §2.13.3: "If there are one or more int-expr expressions and no async clause, the host thread will
// wait until all operations enqueued by this host thread on each of the associated device
// activity queues have completed."
#include <stdio.h>
int main(void) {
    int a[10], b[10];
#pragma acc parallel loop async(6) copyout(a)
    for (int i = 0; i < 10; i++) a[i] = i + 1;
#pragma acc parallel loop async(7) copyout(b)
    for (int i = 0; i < 10; i++) b[i] = i + 2;
#pragma acc wait(6, 7)
    printf("%d %d\n", a[9], b[9]);
    return 0;
}
