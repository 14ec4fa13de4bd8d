/* A large linked structure freed, then arrays copied to and from the device: the transfers must
 * not pay for the freed blocks (samples/bench/RESULTS.md, session 14, xfer17).
 *
 * A program builds and frees a list of K small nodes (a parse tree, a work list, ...), then maps
 * two arrays of N doubles (`copyin` and `copyout`) around a `parallel loop`. With glibc's fast
 * bins, the first large allocation after the frees (the device copy) merged all K freed blocks
 * first, in one serial pass. Prints the list's sum and the output's. Sizes: -DK=... -DN=... .
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef K
#define K 1000000
#endif
#ifndef N
#define N 4000000
#endif

struct item {
    long value;
    struct item *next;
};

int main(void)
{
    struct item *head = NULL;
    for (long i = 0; i < K; i++) {
        struct item *it = malloc(sizeof *it);
        if (it == NULL)
            return 1;
        it->value = i % 7;
        it->next = head;
        head = it;
    }
    long lsum = 0;
    while (head != NULL) {
        struct item *next = head->next;
        lsum += head->value;
        free(head);
        head = next;
    }
    double *in = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N);
    if (in == NULL || out == NULL)
        return 1;
    for (int i = 0; i < N; i++)
        in[i] = (double)(i % 1000) * 0.5;
#pragma acc parallel loop copyin(in[0:N]) copyout(out[0:N])
    for (int i = 0; i < N; i++)
        out[i] = in[i] * 2.0 + 1.0;
    double osum = 0.0;
    for (int i = 0; i < N; i++)
        osum += out[i];
    printf("list=%ld out=%.6e\n", lsum, osum);
    free(in);
    free(out);
    return 0;
}
