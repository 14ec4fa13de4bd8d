// §2.6.4.3/§2.13.2: a wait clause on enter data: the copy-in waits for the host-side producer
// queue; the async copy-in on queue 1 is then waited for by the kernel's wait clause.
#include <stdio.h>
int main(void) {
    int a[16], b[16];
    for (int i = 0; i < 16; i++) a[i] = i;
#pragma acc enter data copyin(a) async(1)
#pragma acc parallel loop present(a) copyout(b) wait(1)
    for (int i = 0; i < 16; i++) b[i] = a[i] * 3;
#pragma acc exit data delete(a) wait(1)
    printf("%d %d\n", b[1], b[15]);
    return 0;
}
