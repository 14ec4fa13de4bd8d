// expect-exit: 3
// expect-stderr: error
// §3.2.25: "It is an error to call acc_map_data for host data that is already present on the
// device."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int h[4] = {0};
    int *d = (int *)acc_malloc(sizeof h);
    acc_copyin(h, sizeof h);
    acc_map_data(h, d, sizeof h); /* expect: already-mapped */
    printf("%d\n", h[0]);
    return 0;
}
