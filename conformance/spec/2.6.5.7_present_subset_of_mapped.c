// §2.6.5.7: "the present clause must specify the same subarray, or a subarray that is a proper
// subset of the subarray in the data lifetime."
#include <stdio.h>
int main(void) {
    int a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc data copy(a[0:100])
    {
#pragma acc parallel loop present(a[10:20])
        for (int i = 10; i < 30; i++) a[i] = 0;
#pragma acc parallel loop present(a[0:100])
        for (int i = 0; i < 100; i++) a[i] += 1;
    }
    printf("%d %d %d %d\n", a[9], a[10], a[29], a[30]);
    return 0;
}
