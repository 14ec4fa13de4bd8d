// §2.7.8/§2.4: device_type on a loop directive selects clauses per device type; `seq` for another
// architecture does not apply, `gang vector` (before any device_type) does. The loop is
// independent, so the result is the same either way; the directive is accepted.
#include <stdio.h>
int main(void) {
    int a[64];
#pragma acc parallel copyout(a)
    {
#pragma acc loop gang vector device_type(radeon) seq
        for (int i = 0; i < 64; i++) a[i] = i + 1;
    }
    printf("%d %d\n", a[0], a[63]);
    return 0;
}
