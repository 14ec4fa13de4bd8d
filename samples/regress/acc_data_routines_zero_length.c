// Issue 12, the data routines' zero-length arguments (§3.2.17–§3.2.24). OpenACC 2.0 makes each
// routine equivalent to its directive, and a zero-length subarray names no data, so a length
// of 0 does nothing, whatever the pointer: acc_copyin and acc_create return NULL, acc_copyout,
// acc_delete and the updates move nothing (later specifications say the same for a null
// pointer; libgomp 10-12 stops instead). Here the last block of a blocked loop is empty, and
// an optional array is absent.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 9
#define BLOCKS 4

int main(void) {
    double *a = malloc(N * sizeof *a);
    for (int i = 0; i < N; i++)
        a[i] = i;
    int per = (N + BLOCKS - 1) / BLOCKS; /* 3, 3, 3, then an empty block */
    for (int b = 0; b < BLOCKS; b++) {
        int start = b * per, len = start + per <= N ? per : N - start;
        if (len < 0)
            len = 0;
        double *d = acc_copyin(&a[start], len * sizeof a[0]);
#pragma acc parallel loop present(a[start:len])
        for (int i = start; i < start + len; i++)
            a[i] = 10 * a[i];
        acc_copyout(&a[start], len * sizeof a[0]);
        printf("block %d: %d elements, device copy %s\n", b, len, d ? "made" : "none");
    }
    double *extra = NULL; /* an optional array, absent */
    size_t extra_bytes = 0;
    void *d = acc_create(extra, extra_bytes);
    acc_update_device(extra, extra_bytes);
    acc_update_self(extra, extra_bytes);
    acc_delete(extra, extra_bytes);
    printf("absent array: device copy %s, present %d\n", d ? "made" : "none", acc_is_present(extra, extra_bytes));
    for (int i = 0; i < N; i++)
        printf("%g ", a[i]);
    printf("\n");
    free(a);
    return 0;
}
