// §2.1: "#pragma acc directive-name [clause [[,] clause]...]" -- clauses may be separated by
// commas or by white space; "The order in which clauses appear is not significant".
#include <stdio.h>
int main(void) {
    int a[8], b[8], c[8];
    for (int i = 0; i < 8; i++) { a[i] = i; b[i] = 10 * i; c[i] = -1; }
#pragma acc parallel loop copyout(c), copyin(a) , copyin(b)
    for (int i = 0; i < 8; i++) c[i] = a[i] + b[i];
    printf("%d %d %d\n", c[0], c[3], c[7]);
#pragma acc parallel loop copyin(b) copyout(c) copyin(a)
    for (int i = 0; i < 8; i++) c[i] = b[i] - a[i];
    printf("%d %d %d\n", c[0], c[3], c[7]);
    return 0;
}
