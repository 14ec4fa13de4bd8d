// §2.7.11: && and || reductions: "all positive" and "any zero" over an array.
#include <stdio.h>
int main(void) {
    int v[40];
    for (int i = 0; i < 40; i++) v[i] = i + 1;
    v[17] = 0;
    int all_pos = 1, any_zero = 0, all_small = 1;
#pragma acc parallel loop copyin(v) reduction(&&:all_pos, all_small) reduction(||:any_zero)
    for (int i = 0; i < 40; i++) {
        all_pos = all_pos && v[i] > 0;
        all_small = all_small && v[i] < 100;
        any_zero = any_zero || v[i] == 0;
    }
    printf("all positive %d, all small %d, any zero %d\n", all_pos, all_small, any_zero);
    return 0;
}
