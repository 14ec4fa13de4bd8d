// §2.1: "White space may be used before and after the #" in a directive line.
#include <stdio.h>
int main(void) {
    int v[6] = {1, 2, 3, 4, 5, 6};
    int sum = 0;
    #  pragma   acc   parallel loop   copyin(v)  reduction(+:sum)
    for (int i = 0; i < 6; i++) sum += v[i];
    printf("sum = %d\n", sum);
    return 0;
}
