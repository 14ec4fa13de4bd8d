// §2.6.5.8: "This clause may be shortened to pcopy." Both uses: absent (copies) and present
// (inside a data region that copies at its own end).
#include <stdio.h>
int main(void) {
    double d[3] = {1.0, 2.0, 3.0};
#pragma acc parallel loop pcopy(d)
    for (int i = 0; i < 3; i++) d[i] += 0.5;
#pragma acc data copy(d)
    {
#pragma acc parallel loop pcopy(d)
        for (int i = 0; i < 3; i++) d[i] *= 2.0;
    }
    printf("%.1f %.1f %.1f\n", d[0], d[1], d[2]);
    return 0;
}
