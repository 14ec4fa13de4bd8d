// §2.12.1: "Only the gang, worker, vector, seq and bind clauses may follow a device type clause" --
// the level given after device_type(*) applies.
#include <stdio.h>
#pragma acc routine device_type(*) seq
static int inc(int x) { return x + 1; }
int main(void) {
    int v[6];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 6; i++) v[i] = inc(i * i);
    printf("%d %d\n", v[0], v[5]);
    return 0;
}
