// §2.9: a reduction clause on parallel loop applies to the loop, and its result is in the variable
// after the construct (§2.7.11, §2.5.11).
#include <stdio.h>
int main(void) {
    int count = 5;
    int v[30];
    for (int i = 0; i < 30; i++) v[i] = i % 3;
#pragma acc parallel loop copyin(v) reduction(+:count)
    for (int i = 0; i < 30; i++) count += (v[i] == 0);
    printf("count = %d\n", count);
    return 0;
}
