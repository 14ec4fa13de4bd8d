// expect-exit: 3
// expect-stderr: acc_map_data
// §3.2.25: "The acc_map_data routine maps previously allocated device data to the specified host
// data." One device block mapped to two different host arrays would make both the device copy of
// the other: the second mapping of the same device address is an error (as in libgomp).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    static int h1[8], h2[8];
    void *d = acc_malloc(sizeof h1);
    acc_map_data(h1, d, sizeof h1);
    acc_map_data(h2, d, sizeof h2); /* expect: already-mapped */
    printf("mapped twice\n");
    return 0;
}
