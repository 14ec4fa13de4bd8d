// §2.6.5.7 with §2.6.5: a struct member mapped by a data construct is found by a present clause
// naming the same member in a called function's region.
#include <stdio.h>
struct mesh { int n; float x[32]; };
static struct mesh m;
static void shift(void) {
#pragma acc parallel loop present(m.x)
    for (int i = 0; i < 32; i++) m.x[i] += 1.0f;
}
int main(void) {
    m.n = 32;
    for (int i = 0; i < 32; i++) m.x[i] = (float)i;
#pragma acc data copy(m.x)
    {
        shift();
        shift();
    }
    printf("%.1f %.1f\n", m.x[0], m.x[31]);
    return 0;
}
