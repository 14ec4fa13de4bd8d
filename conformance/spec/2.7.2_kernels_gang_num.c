// §2.7.2: in a kernels region, "If an argument with no keyword or an argument after the num
// keyword is specified, it specifies how many gangs to use to execute the iterations of this loop."
#include <stdio.h>
int main(void) {
    int a[100], b[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc kernels copyin(a) copyout(b)
    {
#pragma acc loop gang(4)
        for (int i = 0; i < 100; i++) b[i] = a[i] + 1;
#pragma acc loop gang(num:8)
        for (int i = 0; i < 100; i++) b[i] = b[i] * 2;
    }
    printf("%d %d\n", b[0], b[99]);
    return 0;
}
