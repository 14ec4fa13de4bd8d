// Session 16 (tsum19), issue 15: a device thread's fork starts without steps and draws its first
// chunk from the launch's step pool at its first step; native code entered there computed its
// first unit of fuel as 0 - 1, a fuel without end, so a kernel run natively ignored
// `--max-steps` (this program exited 0 natively and 4 in the interpreter). The entry now draws
// as the interpreter does: both engines stop, exit 4 naming the flag, on any number of threads.
// accsim-flags: --max-steps 10000000
// expect-exit: 4
// expect-stderr: error[max-steps]
// check: skip
#include <stdio.h>

int main(void)
{
    static double a[64];
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 64; i++) {
        double s = 0;
        for (long k = 0; k < 4000000L; k++)
            s += k * 1e-9;
        a[i] = s;
    }
    printf("%f\n", a[3]);
    return 0;
}
