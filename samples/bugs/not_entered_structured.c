/* The data region maps `a` and releases it itself; `exit data` may not (§2.6.6). */
#include <stdio.h>
int main(void) {
    float a[20];
    for (int i = 0; i < 20; i++) a[i] = i;
#pragma acc data copy(a)
    {
#pragma acc exit data delete(a) /* expect: not-entered */
    }
    printf("a[0] = %.1f\n", a[0]);
    return 0;
}
