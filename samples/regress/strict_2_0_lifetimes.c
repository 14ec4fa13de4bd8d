// Issue 12, `--strict-2.0` reference rules: in OpenACC 2.0 a present_or_ clause or routine that
// finds its data present "takes no action" (§2.6.5.8–§2.6.5.11, §3.2.18, §3.2.20), so it adds no
// reference, and acc_delete / `exit data` end the data lifetime and deallocate (§3.2.21,
// §3.2.22, §2.6.5.4, §2.6.5.6), even inside a data region that found the data present. (The
// default, OpenACC 2.5's counts, keeps the data until every reference is gone.)
// accsim-flags: --strict-2.0
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 100

/* A library routine that makes sure its input is on the device. */
static void ensure_on_device(double *v, int n) {
    acc_present_or_copyin(v, n * sizeof *v);
}

int main(void) {
    double *a = malloc(N * sizeof *a);
    for (int i = 0; i < N; i++)
        a[i] = i;
    size_t bytes = N * sizeof *a;

    acc_copyin(a, bytes);
    ensure_on_device(a, N); /* present: no action */
    acc_delete(a, bytes);   /* ends the lifetime acc_copyin started */
    printf("after acc_delete: present = %d\n", acc_is_present(a, bytes));

#pragma acc enter data copyin(a[0:N])
#pragma acc data present_or_copy(a[0:N])
    {
#pragma acc parallel loop present(a[0:N])
        for (int i = 0; i < N; i++)
            a[i] += 1;
        /* the data region found a present: exit data ends the lifetime, copying out */
#pragma acc exit data copyout(a[0:N])
        printf("after exit data in the region: present = %d, a[1] = %g\n", acc_is_present(a, bytes), a[1]);
    }
    printf("after the region: present = %d\n", acc_is_present(a, bytes));
    free(a);
    return 0;
}
