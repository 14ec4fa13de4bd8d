// §2.6.5.6: the delete clause deallocates "arrays, subarrays" named on exit data. A subarray
// entered with copyin is deleted with the same subarray, and is then not present.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
int main(void) {
    int n = 100;
    float *p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) p[i] = (float)i;
#pragma acc enter data copyin(p[10:20])
    printf("p[10:20] present: %d\n", acc_is_present(p + 10, 20 * sizeof *p) != 0);
#pragma acc exit data delete(p[10:20])
    printf("p[10:20] present after delete: %d\n", acc_is_present(p + 10, 20 * sizeof *p) != 0);
    free(p);
    return 0;
}
