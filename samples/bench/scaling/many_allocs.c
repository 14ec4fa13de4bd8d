/* Many small live host allocations, then small kernels: the memory of a launch must not grow
 * with the number of allocations times the number of device threads.
 *
 * A program keeps K small host blocks alive (a linked structure, a cache, ...), then runs LAUNCHES
 * kernels over a short array in a `data` region. Each device thread of a launch sees the
 * device memory and none of the host memory (OpenACC 2.0 §1.3: separate memories); accsim must
 * not copy the table of all K host allocations for each of them (samples/bench/RESULTS.md,
 * "Device forks share the allocation table"). Prints the sum of the array and of the blocks.
 * Sizes: -DK=... -DLAUNCHES=... -DN=... .
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef K
#define K 200000
#endif
#ifndef LAUNCHES
#define LAUNCHES 10
#endif
#ifndef N
#define N 1024
#endif

int main(void)
{
    int **blocks = malloc(sizeof(int *) * K);
    float *x = malloc(sizeof(float) * N);
    if (blocks == NULL || x == NULL) {
        fprintf(stderr, "many_allocs: out of memory\n");
        return 1;
    }
    for (int i = 0; i < K; i++) {
        blocks[i] = malloc(sizeof(int));
        if (blocks[i] == NULL) {
            fprintf(stderr, "many_allocs: out of memory\n");
            return 1;
        }
        *blocks[i] = i % 7;
    }
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 13);

#pragma acc data copy(x[0:N])
    for (int l = 0; l < LAUNCHES; l++) {
#pragma acc parallel loop gang vector
        for (int i = 0; i < N; i++)
            x[i] = x[i] * 0.5f + 1.0f;
    }

    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += x[i];
    long total = 0;
    for (int i = 0; i < K; i++) {
        total += *blocks[i];
        free(blocks[i]);
    }
    free(blocks);
    free(x);
    printf("sum %.3f blocks %ld\n", sum, total);
    return 0;
}
