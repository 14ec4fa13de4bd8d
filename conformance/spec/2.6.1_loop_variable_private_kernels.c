// §2.6.1: "The loop variable in a C for statement ... that is associated with a loop directive is
// predetermined to be private to the thread that will execute the loop." In a kernels construct
// a scalar would otherwise be copied (§2.5.2); being private, the host `i` keeps its value.
#include <stdio.h>
int main(void) {
    int i = 42;
    int a[16];
#pragma acc kernels loop copyout(a)
    for (i = 0; i < 16; i++) a[i] = i * i;
    printf("i = %d, a[15] = %d\n", i, a[15]);
    return 0;
}
