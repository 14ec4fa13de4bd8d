/* 05_enter_exit_data.c — device data whose lifetime is not a block: enter data / exit data.
 *
 * Teaches: a `data` construct ties device data to one structured block. Real programs create data
 * in one function and free it in another: `enter data` starts a dynamic data lifetime and
 * `exit data` ends it (§2.6.4, §2.11.3, §2.11.4; lifetimes §2.6.2). `enter data copyin` copies the
 * host values in, `enter data create` only allocates; `exit data copyout` copies back and frees,
 * `exit data delete` frees without copying (§2.6.5.6). A data clause may name a subarray of a
 * struct member, `v.data[0:v.n]`, when the struct itself is not reached through a pointer
 * (§2.6.5, restrictions). Between them, compute regions anywhere in
 * the program find the data with `present` (§2.6.5.7). Here a small "device vector" type keeps
 * its device copy alive from vec_new to vec_free.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int n;
    double *data;
} vec;

static vec vec_new(int n) {
    vec v = {n, malloc(n * sizeof(double))};
    double *d = v.data;
    for (int i = 0; i < n; i++) d[i] = 0.0;
#pragma acc enter data copyin(d[0:n])
    return v;
}

static void vec_free(vec v) {
#pragma acc exit data delete(v.data[0:v.n])
    free(v.data);
}

/* Brings the device values back, ends the device lifetime, and sums on the host. */
static double vec_finish_sum(vec v) {
#pragma acc exit data copyout(v.data[0:v.n])
    double sum = 0.0;
    for (int i = 0; i < v.n; i++) sum += v.data[i];
    return sum;
}

static void vec_iota(vec v, double scale) {
    double *d = v.data;
    int n = v.n;
#pragma acc parallel loop present(d[0:n])
    for (int i = 0; i < n; i++) d[i] = scale * i;
}

static void vec_axpy(vec y, double a, vec x) {
    double *yd = y.data;
    const double *xd = x.data;
    int n = y.n;
#pragma acc parallel loop present(yd[0:n], xd[0:n])
    for (int i = 0; i < n; i++) yd[i] += a * xd[i];
}

int main(void) {
    int n = 1500;
    vec x = vec_new(n);
    vec y = vec_new(n);

    /* scratch is only ever needed on the device: create, never copied. */
    double *scratch = malloc(n * sizeof *scratch);
    if (!x.data || !y.data || !scratch) return 1;
#pragma acc enter data create(scratch[0:n])

    vec_iota(x, 0.5);
    vec_iota(y, 1.0);
    vec_axpy(y, 2.0, x);        /* y[i] = i + 2*(0.5 i) = 2i */

    double *yd = y.data;
#pragma acc parallel loop present(scratch[0:n], yd[0:n])
    for (int i = 0; i < n; i++) scratch[i] = yd[i] * 0.25;
    vec sv = {n, scratch};
    vec_axpy(y, -1.0, sv);      /* y[i] = 2i - i/2 = 1.5 i */

#pragma acc exit data delete(scratch[0:n])
    free(scratch);

    double sum = vec_finish_sum(y);
    printf("y[2] = %.6f, y[%d] = %.6f\n", y.data[2], n - 1, y.data[n - 1]);
    printf("sum = %.6f\n", sum);

    vec_free(x);
    free(y.data);
    return 0;
}
