// Issue 12 item 1: scalars named in a data clause of an enclosing data construct
// are not firstprivate in the compute constructs inside it (§2.5.1, §2.5.2: the implicit
// attributes are for variables that do not appear "in a data clause for the construct or any
// enclosing data construct"). The compute constructs use their device copies, which the data
// constructs copy out.
// Variants: global, local, parameter and struct member scalars; parallel and kernels; C89
// declarations and C99 for-declarations; a device-resident scalar carried between two regions.
#include <stdio.h>

#define N 1000

int hits;                 /* a global counter */

struct tally {
    int positives;
    int negatives;
};

/* C89 style: declarations first, a global counter mapped by the caller's own data construct. */
static void count_hits(const int *v, int n)
{
    int i;
#pragma acc data copyin(v[0:n]) copy(hits)
    {
#pragma acc parallel loop
        for (i = 0; i < n; i++) {
            if (v[i] % 3 == 0) {
#pragma acc atomic update
                hits++;
            }
        }
    }
}

/* A parameter passed by value, mapped by the function's data construct and returned. */
static double accumulate(const double *x, int n, double total)
{
#pragma acc data copyin(x[0:n]) copy(total)
    {
#pragma acc parallel loop
        for (int i = 0; i < n; i++) {
#pragma acc atomic update
            total += x[i];
        }
    }
    return total;
}

int main(void)
{
    int v[N];
    double x[N];
    struct tally t = {0, 0};
    int evens = 0;
    float largest;
    for (int i = 0; i < N; i++) {
        v[i] = i - N / 2;
        x[i] = 0.5;
    }

    count_hits(v, N);
    printf("hits = %d\n", hits);

    printf("total = %.1f\n", accumulate(x, N, 10.0));

    /* A local scalar in kernels, counted with atomics. */
#pragma acc data copyin(v) copy(evens)
    {
#pragma acc kernels loop independent
        for (int i = 0; i < N; i++) {
            if (v[i] % 2 == 0) {
#pragma acc atomic update
                evens++;
            }
        }
    }
    printf("evens = %d\n", evens);

    /* Struct members mapped on their own (§2.6.5). */
#pragma acc data copyin(v) copy(t.positives, t.negatives)
    {
#pragma acc parallel loop
        for (int i = 0; i < N; i++) {
            if (v[i] > 0) {
#pragma acc atomic update
                t.positives++;
            } else if (v[i] < 0) {
#pragma acc atomic update
                t.negatives++;
            }
        }
    }
    printf("positives = %d, negatives = %d\n", t.positives, t.negatives);

    /* A scalar that lives on the device between two regions: written by one, read by the next. */
#pragma acc data copyin(v) create(x, largest)
    {
#pragma acc parallel
        {
            largest = (float)v[N - 1];
        }
#pragma acc parallel loop
        for (int i = 0; i < N; i++)
            x[i] = v[i] / largest;
#pragma acc update host(largest)
#pragma acc update host(x)
    }
    printf("largest = %.0f, x[N-1] = %.1f\n", largest, x[N - 1]);

    return 0;
}
