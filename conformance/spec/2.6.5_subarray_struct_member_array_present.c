// §2.6.5: "a member of a struct or class may be specified, including a subarray of a member" --
// mapped by a data construct, used in the region without a clause.
#include <stdio.h>
struct buf { int len; double data[16]; };
int main(void) {
    struct buf b;
    b.len = 16;
    for (int i = 0; i < 16; i++) b.data[i] = i;
#pragma acc data copy(b.data[0:8])
    {
#pragma acc parallel loop present(b.data[0:8])
        for (int i = 0; i < 8; i++) b.data[i] *= 2.0;
    }
    printf("%.1f %.1f %.1f\n", b.data[1], b.data[7], b.data[8]);
    return 0;
}
