// §2.9: "Any clause that is allowed on a parallel or loop directive are allowed on the parallel
// loop directive": num_gangs, vector_length, firstprivate (parallel) with private, gang, vector
// (loop) on one directive.
#include <stdio.h>
int main(void) {
    int base = 7, t;
    int out[100];
#pragma acc parallel loop num_gangs(4) vector_length(32) firstprivate(base) private(t) gang vector copyout(out)
    for (int i = 0; i < 100; i++) {
        t = base * i;
        out[i] = t + 1;
    }
    printf("%d %d %d\n", out[0], out[50], out[99]);
    return 0;
}
