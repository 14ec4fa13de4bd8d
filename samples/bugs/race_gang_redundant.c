/* Every gang runs the code of a parallel region outside its loops (gang-redundant mode, §2.5.1),
   so all gangs write `flag[0]`: a data race. */
#include <stdio.h>
int main(void) {
    int flag[1] = {0};
    float a[64];
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma acc parallel num_gangs(4) copy(flag, a)
    {
        flag[0] = 1; /* expect: data-race */
#pragma acc loop gang
        for (int i = 0; i < 64; i++) a[i] *= 2.0f;
    }
    printf("flag = %d, a[5] = %.1f\n", flag[0], a[5]);
    return 0;
}
