// §2.7 Restrictions: "Only the collapse, gang, worker, vector, seq, auto and tile clauses may
// follow a device_type clause." A `vector` for one device type and `seq` for all others is
// allowed; on this device (not the named type) the loop runs as `seq` prescribes.
#include <stdio.h>
int main(void) {
    int a[10];
#pragma acc parallel num_gangs(1) copyout(a)
    {
#pragma acc loop device_type(nvidia) vector device_type(*) seq
        for (int i = 0; i < 10; i++) a[i] = i + 1;
    }
    printf("%d %d\n", a[0], a[9]);
    return 0;
}
