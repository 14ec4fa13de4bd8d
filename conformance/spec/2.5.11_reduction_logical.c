// §2.5.11: operators `&&` (initial 1) and `||` (initial 0). A gang that keeps its copy
// (x = x && 1, y = y || 0) leaves the initial value, which is then combined with the original.
#include <stdio.h>
int main(void) {
    int all1 = 1, all0 = 0, any0 = 0, any1 = 1;
#pragma acc parallel num_gangs(4) reduction(&&:all1, all0) reduction(||:any0, any1)
    {
        all1 = all1 && 1;
        all0 = all0 && 1;
        any0 = any0 || 0;
        any1 = any1 || 0;
    }
    printf("&&: %d %d\n||: %d %d\n", all1, all0, any0, any1);
    return 0;
}
