// §2.1: "Preprocessing tokens following the #pragma acc are subject to macro replacement."
// The subarray length, num_gangs and the reduction operand come from macros.
#include <stdio.h>
#define N 100
#define GANGS 4
#define SUM total
int main(void) {
    int a[N];
    int total = 0;
    for (int i = 0; i < N; i++) a[i] = i;
#pragma acc parallel loop num_gangs(GANGS) copyin(a[0:N]) reduction(+:SUM)
    for (int i = 0; i < N; i++) total += a[i];
    printf("total = %d\n", total);
    return 0;
}
