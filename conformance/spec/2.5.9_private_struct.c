// §2.5.9: private of a struct: a per-gang work struct, the host's struct untouched.
#include <stdio.h>
struct acc2 { int lo; int hi; };
int main(void) {
    struct acc2 w = {-1, -1};
    int out[12];
#pragma acc parallel num_gangs(3) private(w) copyout(out)
    {
#pragma acc loop gang
        for (int i = 0; i < 12; i++) {
            w.lo = i;
            w.hi = i * 10;
            out[i] = w.lo + w.hi;
        }
    }
    printf("%d %d, host w = %d %d\n", out[1], out[11], w.lo, w.hi);
    return 0;
}
