// §2.12.1.5: "If the name is specified as a string, the string is used for the procedure name
// unmodified."
#include <stdio.h>
#pragma acc routine seq
int norm_device(int x) { return x < 0 ? -x : x; }
#pragma acc routine seq bind("norm_device")
static int norm(int x) { return x; }
int main(void) {
    int v[4] = {-3, 4, -5, 6}, r[4];
#pragma acc parallel loop copyin(v) copyout(r)
    for (int i = 0; i < 4; i++) r[i] = norm(v[i]);
    printf("device: %d %d %d %d  host: %d\n", r[0], r[1], r[2], r[3], norm(v[0]));
    return 0;
}
