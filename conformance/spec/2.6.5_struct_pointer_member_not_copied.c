// expect-exit: 3
// expect-stderr: error
// §2.6.5 restriction: "If a struct or class member is a pointer type, the data addressed by that
// pointer are not implicitly copied." The device copy of `v.data` still holds the host address,
// which the device cannot dereference.
#include <stdio.h>
#include <stdlib.h>
struct vec { int n; double *data; };
int main(void) {
    struct vec v;
    v.n = 4;
    v.data = calloc(4, sizeof(double));
#pragma acc parallel loop copy(v)
    for (int i = 0; i < 4; i++) v.data[i] = i; /* expect: device-deref-host-ptr */
    printf("%.1f\n", v.data[3]);
    free(v.data);
    return 0;
}
