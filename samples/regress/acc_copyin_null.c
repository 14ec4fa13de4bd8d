// Issue 12, errors runtimes catch: a data routine given a null pointer with a nonzero length
// (§3.2.17: the arguments are "a pointer to the data and length in bytes"; libgomp stops with
// "[(nil),+8000] is a bad range"). Here the array is allocated only on one path.
// expect-exit: 3
// expect-stderr: error[bad-argument]
// expect-stderr: acc_copyin_null.c:21:5
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(int argc, char **argv) {
    int n = 1000;
    double *weights = NULL;
    if (argc > 1) {
        weights = malloc(n * sizeof *weights);
        for (int i = 0; i < n; i++)
            weights[i] = 1.0 / (i + 1);
    }
    double sum = 0;
    /* the default (no argument) path never allocated weights */
    acc_copyin(weights, n * sizeof *weights); /* expect: bad-argument */
#pragma acc parallel loop present(weights[0:n]) reduction(+:sum)
    for (int i = 0; i < n; i++)
        sum += weights[i];
    printf("sum = %f\n", sum);
    return 0;
}
