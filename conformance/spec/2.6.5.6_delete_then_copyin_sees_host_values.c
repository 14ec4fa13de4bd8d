// §2.6.5.6: "The delete clause is used on exit data directives to deallocate, arrays, subarrays
// ... without copying values back to local memory." The device value written before the delete
// is lost; a new copyin takes the host's values again.
#include <stdio.h>
int main(void) {
    int a[4] = {1, 1, 1, 1};
#pragma acc enter data copyin(a)
#pragma acc parallel loop present(a)
    for (int i = 0; i < 4; i++) a[i] = 50;
#pragma acc exit data delete(a)
    for (int i = 0; i < 4; i++) a[i] += 1; /* expect: stale-host-read */
    int sum = 0;
#pragma acc parallel loop copyin(a) reduction(+:sum)
    for (int i = 0; i < 4; i++) sum += a[i];
    printf("host a[0] = %d, device sum = %d\n", a[0], sum);
    return 0;
}
