// §2.5.10: firstprivate of a struct: each gang's copy starts as the host's struct; the host's
// struct is unchanged by the region.
#include <stdio.h>
struct params { int scale; int shift; };
int main(void) {
    struct params pr = {3, 7};
    int out[10];
#pragma acc parallel num_gangs(2) firstprivate(pr) copyout(out)
    {
#pragma acc loop gang
        for (int i = 0; i < 10; i++) out[i] = pr.scale * i + pr.shift;
        pr.scale = 0;
    }
    printf("%d %d, host scale = %d\n", out[0], out[9], pr.scale);
    return 0;
}
