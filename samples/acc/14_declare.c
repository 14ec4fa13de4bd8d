/* 14_declare.c — global data on the device: the declare directive.
 *
 * Teaches: `#pragma acc declare` after a declaration (§2.10) gives a variable a device copy for
 * the implicit data region of its scope. At file scope that region is the whole program (§2.6.2),
 * and only create, copyin, deviceptr, device_resident and link are allowed there:
 *   `declare create(coef)`   device copy allocated at program start, never copied implicitly;
 *                            the program fills it with `update device` (§2.11.1);
 *   `declare copyin(table)`  device copy initialised from the host value at program start.
 * Routines compiled for the device may use such globals only if they are declared this way
 * (§2.12.2). Inside a function, `declare create(w)` behaves like a data construct around the body
 * of the function (§2.10): w's device copy exists from entry to return.
 * A declared variable may not appear in a data clause where its declaration is visible (§2.10,
 * restrictions): the compute regions below name no clause for coef or w, and find the visible
 * device copy; update directives are not data clauses and are how the copies are synchronised.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>

#define N 256

static double coef[N];
#pragma acc declare create(coef)

static const double table[8] = {1.0, 0.5, 0.25, 2.0, 4.0, -1.0, 0.0, 3.0};
#pragma acc declare copyin(table)

#pragma acc routine seq
static double weight(int i) {
    return table[i % 8] * coef[i];
}

static double sum_weights(void) {
    double w[N];
#pragma acc declare create(w)
#pragma acc parallel loop
    for (int i = 0; i < N; i++) w[i] = 2.0 * weight(i);
    /* The device copy of w lives until the function returns and is never copied back
       implicitly (create): the host must ask for it before reading. */
#pragma acc update host(w)
    double s = 0.0;
    for (int i = 0; i < N; i++) s += w[i];
    return s;
}

int main(void) {
    for (int i = 0; i < N; i++) coef[i] = (double)(i % 5);
#pragma acc update device(coef)

    /* the device copy changes; the host copy does not until update host */
#pragma acc parallel loop
    for (int i = 0; i < N; i++) coef[i] = coef[i] + 0.5;
#pragma acc update host(coef)

    double csum = 0.0;
    for (int i = 0; i < N; i++) csum += coef[i];
    printf("coef[3] = %.6f, sum(coef) = %.6f\n", coef[3], csum);

    double out[N];
#pragma acc parallel loop copyout(out)
    for (int i = 0; i < N; i++) out[i] = weight(i);
    double osum = 0.0;
    for (int i = 0; i < N; i++) osum += out[i];
    printf("weight(5) = %.6f, sum of weights = %.6f\n", out[5], osum);
    printf("sum_weights() = %.6f\n", sum_weights());
    return 0;
}
