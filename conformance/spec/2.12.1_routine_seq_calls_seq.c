// §2.12.1.4: "A call to this procedure may appear in any mode" -- a seq routine calling another
// seq routine, from a vector loop.
#include <stdio.h>
#pragma acc routine seq
static int gcd(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }
#pragma acc routine seq
static int lcm(int a, int b) { return a / gcd(a, b) * b; }
int main(void) {
    int l[12];
#pragma acc parallel loop gang vector copyout(l)
    for (int i = 0; i < 12; i++) l[i] = lcm(i + 1, 6);
    printf("%d %d %d %d\n", l[0], l[3], l[8], l[11]);
    return 0;
}
