// §2.6.6.1 with §2.6.4: data present through an enter data lifetime has its device address
// available in host_data too; acc_hostptr (§3.2.28) maps it back to the host array.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
int main(void) {
    int n = 32;
    double *v = malloc(n * sizeof *v);
#pragma acc enter data create(v[0:n])
    double *dv = NULL;
#pragma acc host_data use_device(v)
    {
        dv = v;
    }
    printf("matches acc_deviceptr: %d\n", (void *)dv == acc_deviceptr(v));
    printf("acc_hostptr maps back: %d\n", acc_hostptr(dv) == (void *)v);
#pragma acc exit data delete(v[0:n])
    free(v);
    return 0;
}
