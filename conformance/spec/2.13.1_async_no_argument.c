// §2.13.1: "The async-value of any operation is the value of the async argument expression, if
// present, or acc_async_noval if the async clause had no value"; a wait directive with no
// arguments waits for every queue (§2.13.3).
#include <stdio.h>
int main(void) {
    long s[10];
#pragma acc kernels async copyout(s)
    for (int i = 0; i < 10; i++) s[i] = (long)i * i * i;
#pragma acc wait
    printf("%ld %ld\n", s[2], s[9]);
    return 0;
}
