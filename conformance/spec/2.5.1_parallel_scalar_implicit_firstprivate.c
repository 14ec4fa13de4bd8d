// §2.5.1: "A scalar variable referenced in the parallel construct that does not appear in a data
// clause for the construct or any enclosing data construct will be treated as if it appeared in
// a firstprivate clause." Its host value initialises each copy; the assignment on the device
// does not reach the host.
#include <stdio.h>
int main(void) {
    int scale = 3;
    int out[4];
#pragma acc parallel num_gangs(1) copyout(out)
    {
        out[0] = scale;
        scale = 100; /* expect: lost-write */
        out[1] = scale;
    }
    printf("out = %d %d, host scale = %d\n", out[0], out[1], scale);
    return 0;
}
