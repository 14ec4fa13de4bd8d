// Issue 12 (check must not cry wolf): a `kernels` construct copies the scalars it uses to the
// device and back (§2.5.2), on its queue when it is `async` (§2.13). When the device never wrote
// the scalar, the copy back stores the bytes the host already holds: the host reading `n` (the
// loop bound of its next loop) before the wait, or another queue's transfer of `n`, races with
// nothing. `check` reported async races on `n` there. A host write of `n` before the wait
// would still race (the copy back would undo it).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n = 1000;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c) return 1;
    for (int i = 0; i < n; i++) a[i] = i;
#pragma acc enter data copyin(a[0:n]) create(b[0:n], c[0:n])
#pragma acc kernels async(1) present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++) b[i] = 2.0f * a[i];
#pragma acc kernels async(2) present(a[0:n], c[0:n])
    for (int i = 0; i < n; i++) c[i] = a[i] + 1.0f;
    float expect = 0.0f;
    for (int i = 0; i < n; i++) expect += 3.0f * i + 1.0f;
#pragma acc wait
#pragma acc exit data copyout(b[0:n], c[0:n]) delete(a[0:n])
    float sum = 0.0f;
    for (int i = 0; i < n; i++) sum += b[i] + c[i];
    printf("sum %s\n", sum == expect ? "ok" : "wrong");
    free(a);
    free(b);
    free(c);
    return 0;
}
