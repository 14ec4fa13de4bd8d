// §2.10: at global scope "the associated region is the implicit region for the whole program";
// create allocates the device copy, and update directives move values (§2.11.1).
#include <stdio.h>
#define N 16
float g[N];
#pragma acc declare create(g)
int main(void) {
    for (int i = 0; i < N; i++) g[i] = (float)i;
#pragma acc update device(g)
#pragma acc parallel loop present(g)
    for (int i = 0; i < N; i++) g[i] = g[i] * g[i];
#pragma acc update host(g)
    printf("%.1f %.1f %.1f\n", g[1], g[4], g[15]);
    return 0;
}
