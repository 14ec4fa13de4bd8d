/* 25_present_or.c — functions that work whether or not their caller mapped the data.
 *
 * Teaches: the present_or_* clauses (§2.6.5.8-§2.6.5.11; short forms pcopy, pcopyin, pcopyout,
 * pcreate) first look for the data on the device: if a surrounding data region or an enter data
 * already put it there, they use it and move nothing; if not, they behave like copy, copyin,
 * copyout or create. So a library function can carry its own data clauses and still cost no
 * transfers when called from inside a caller's data region. The catch: inside the caller's
 * region the results stay on the device, and the caller needs an `update host` (§2.11.1) before
 * reading them on the host.
 * (accsim, like Cray CCE and OpenACC 2.5, also treats plain copy/copyin/copyout/create as
 * present-or by default; the spelled-out clauses below mean the same under strict 2.0 rules.)
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>
#include <stdlib.h>

static void scale(double *v, int n, double s) {
#pragma acc parallel loop present_or_copy(v[0:n])
    for (int i = 0; i < n; i++) v[i] *= s;
}

static double sum_on_device(const double *v, int n) {
    double s = 0.0;
#pragma acc parallel loop pcopyin(v[0:n]) reduction(+:s)
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

static void fill_squares(double *w, const double *v, int n) {
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return;
#pragma acc data present_or_create(tmp[0:n]) pcopyin(v[0:n]) present_or_copyout(w[0:n])
    {
#pragma acc parallel loop present(tmp[0:n], v[0:n])
        for (int i = 0; i < n; i++) tmp[i] = v[i] * v[i];
#pragma acc parallel loop present(tmp[0:n], w[0:n])
        for (int i = 0; i < n; i++) w[i] = tmp[i] + 1.0;
    }
    free(tmp);
}

int main(void) {
    int n = 1200;
    double *v = malloc(n * sizeof *v);
    double *w = malloc(n * sizeof *w);
    if (!v || !w) return 1;
    for (int i = 0; i < n; i++) v[i] = (double)(i % 6);

    /* 1. Nobody mapped v: each call copies what it needs in (and back, for pcopy). */
    scale(v, n, 2.0);
    printf("unmapped: v[5] = %.6f (host already has it), device sum = %.6f\n", v[5], sum_on_device(v, n));

    /* 2. The caller maps v and w once; the calls find them present and move nothing. */
#pragma acc data copy(v[0:n]) create(w[0:n])
    {
        scale(v, n, 0.5);
        double s = sum_on_device(v, n);
        fill_squares(w, v, n);
        /* v and w changed only on the device: bring back what the host reads now */
#pragma acc update host(v[0:n], w[0:n])
        printf("mapped:   v[5] = %.6f, device sum = %.6f, w[5] = %.6f\n", v[5], s, w[5]);
    }

    /* 3. Unmapped again: fill_squares creates, copies in and copies out on its own. */
    scale(v, n, 3.0);
    fill_squares(w, v, n);
    double sw = 0.0;
    for (int i = 0; i < n; i++) sw += w[i];
    printf("unmapped: w[5] = %.6f, sum(w) = %.6f\n", w[5], sw);
    free(v);
    free(w);
    return 0;
}
