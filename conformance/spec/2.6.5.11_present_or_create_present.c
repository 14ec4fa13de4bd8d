// §2.6.5.11: present_or_create on present data uses the existing device copy, whose values were
// copied in by the enclosing data construct.
#include <stdio.h>
int main(void) {
    int a[4] = {4, 3, 2, 1};
    int r[4];
#pragma acc data copyin(a)
    {
#pragma acc parallel loop pcreate(a) copyout(r)
        for (int i = 0; i < 4; i++) r[i] = a[i] * 2;
    }
    printf("%d %d %d %d\n", r[0], r[1], r[2], r[3]);
    return 0;
}
