/* `enter data` mapped ten elements; the update names twenty. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *p = calloc(20, sizeof *p);
#pragma acc enter data copyin(p[0:10])
#pragma acc update host(p[0:20]) /* expect: partially-present */
#pragma acc exit data delete(p[0:10])
    printf("p[0] = %d\n", p[0]);
    free(p);
    return 0;
}
