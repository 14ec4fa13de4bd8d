/* Half of the array is mapped; the construct asks for all of it (§2.6.4). */
#include <stdio.h>
int main(void) {
    float a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc data copyin(a[0:50])
    {
#pragma acc parallel loop copy(a[0:100]) /* expect: partially-present */
        for (int i = 0; i < 100; i++) a[i] += 1.0f;
    }
    printf("a[0] = %.1f\n", a[0]);
    return 0;
}
