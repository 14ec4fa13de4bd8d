// Issue 15, the default gang count (coordinator's decision): without `num_gangs` the number of
// gangs follows the first gang loop's iterations (one per vector_length, at most 256; §2.5.6),
// so each reduction below has its own count of gang partials (§2.5.11): 1 gang for 3
// iterations, 256 for a million, the product of both loops under collapse(2), a bound read from
// a function parameter, a global and (in a kernels construct, where a scalar is copied, §2.5.2)
// a local in memory. Integer reductions are exact: the results are gcc's whatever the count.
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int samples = 777;

static long sum_of_squares(const int *v, int n)
{
    long sum = 0;
#pragma acc parallel loop reduction(+:sum) copyin(v[0:n])
    for (int i = 0; i < n; i++)
        sum += (long)v[i] * v[i];
    return sum;
}

int main(void)
{
    int n = 1000000;
    int *v = malloc(n * sizeof *v);
    if (!v)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = (int)((i * 7919L) % 1013) - 500;
    printf("sum of squares of %d: %ld\n", n, sum_of_squares(v, n));

    int three[3] = {4, -9, 16};
    int lo = INT_MAX, hi = INT_MIN;
    unsigned bits = 0;
#pragma acc parallel loop reduction(min:lo) reduction(max:hi) reduction(|:bits) copyin(three)
    for (int i = 0; i < 3; i++) {
        lo = three[i] < lo ? three[i] : lo;
        hi = three[i] > hi ? three[i] : hi;
        bits |= 1u << (three[i] & 31);
    }
    printf("3 iterations: min %d max %d bits %#x\n", lo, hi, bits);

    long weighted = 0;
    int odd = 0;
#pragma acc parallel loop collapse(2) reduction(+:weighted, odd) copyin(v[0:n])
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 70; j++) {
            weighted += (long)v[i * 70 + j] * (j + 1);
            odd += v[i * 70 + j] & 1;
        }
    printf("collapse(2) 40 x 70: weighted %ld odd %d\n", weighted, odd);

    unsigned long prod = 1;
#pragma acc parallel loop reduction(*:prod) copyin(v[0:samples])
    for (int i = 0; i < samples; i++)
        prod *= v[i] % 3 == 0 ? 3 : 1;
    printf("global bound %d: product %lu\n", samples, prod);

    int m = 4099, count = 0;
    int *pm = &m; /* m lives in memory */
    long negatives = 0;
#pragma acc kernels copyin(v[0:n])
    {
#pragma acc loop gang reduction(+:negatives, count)
        for (int i = 0; i < m; i++) {
            negatives += v[i] < 0 ? v[i] : 0;
            count += v[i] < 0;
        }
    }
    printf("kernels, %d iterations: %d negatives summing to %ld\n", *pm, count, negatives);
    free(v);
    return 0;
}
