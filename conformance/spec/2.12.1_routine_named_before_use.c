// §2.12.1: "The routine directive with a name may appear anywhere that a function prototype is
// allowed and applies to the function in that scope with that name, but must appear before any
// definition or use of that function."
#include <stdio.h>
int cube(int x);
#pragma acc routine(cube) seq
int main(void) {
    int c[5];
#pragma acc parallel loop copyout(c)
    for (int i = 0; i < 5; i++) c[i] = cube(i);
    printf("%d %d %d\n", c[1], c[2], c[4]);
    return 0;
}
int cube(int x) { return x * x * x; }
