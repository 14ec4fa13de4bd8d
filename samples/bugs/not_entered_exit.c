/* `exit data` of data that was never entered (§2.6.6). */
#include <stdio.h>
int main(void) {
    double d[10] = {0};
#pragma acc exit data copyout(d) /* expect: not-entered */
    printf("d[0] = %.1f\n", d[0]);
    return 0;
}
