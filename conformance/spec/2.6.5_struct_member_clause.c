// §2.6.5 restriction: "In C and C++, a member of a struct or class may be specified, including a
// subarray of a member." Only the member named is mapped; the device updates it.
#include <stdio.h>
struct grid { int nx; double cells[8]; double spare[8]; };
int main(void) {
    static struct grid g;
    g.nx = 8;
    for (int i = 0; i < 8; i++) { g.cells[i] = i; g.spare[i] = -1; }
#pragma acc parallel loop copy(g.cells[2:4])
    for (int i = 2; i < 6; i++) g.cells[i] = g.cells[i] * 10.0;
    printf("%.1f %.1f %.1f %.1f\n", g.cells[1], g.cells[2], g.cells[5], g.cells[6]);
    return 0;
}
