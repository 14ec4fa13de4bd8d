// Issue 17, PGI Accelerator 1.3 §2.4.1 restrictions: "If two or more loop scheduling clauses
// (excepting the unroll clause) appear on a single loop mapping directive, all but one must have
// a width argument." A diagnostic with file:line, not a guess at the schedule.
// expect-exit: 2
// expect-stderr: all but one must have a width argument (§2.4.1)
// expect-stderr: pgi13_schedule_widths.c:14
// check: skip
#include <stdio.h>

int main(void) {
    float a[256];
#pragma acc region copyout(a)
    {
#pragma acc for parallel vector
        for (int i = 0; i < 256; i++) a[i] = i;
    }
    printf("%g\n", a[255]);
    return 0;
}
