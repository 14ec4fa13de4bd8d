// §2.11.1 with §2.6.5: update takes a subarray of a struct member.
#include <stdio.h>
struct field { int n; float v[8]; };
int main(void) {
    struct field f;
    f.n = 8;
    for (int i = 0; i < 8; i++) f.v[i] = 0.0f;
#pragma acc data copyin(f)
    {
#pragma acc parallel loop
        for (int i = 0; i < 8; i++) f.v[i] = i + 0.5f;
#pragma acc update host(f.v[4:4])
        printf("%.1f %.1f %.1f\n", f.v[3], f.v[4], f.v[7]); /* expect: stale-host-read */
    }
    return 0;
}
