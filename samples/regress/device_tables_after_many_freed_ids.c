// accsim-flags: --threads 4
// Issue 15 (calltree at 16 threads): a device thread's native span table is filled from the
// device allocations the launch's table holds, not by a walk of every id the program ever made
// (100,000 freed heap blocks here). The kernels must still reach every device array: copied in,
// created, copied out, a `declare create` global whose host id names its device copy, a device
// copy taking a freed id, arrays made on the device after some kernels ran, and data whose
// device copy is freed and made again between launches. Output is gcc's (directives ignored).
#include <stdio.h>
#include <stdlib.h>

#define N 5000
#define BLOCKS 100000

float table[N];
#pragma acc declare create(table)

struct node {
    struct node *next;
    int v;
};

int main(void)
{
    struct node *head = NULL;
    for (int i = 0; i < BLOCKS; i++) {
        struct node *n = malloc(sizeof *n);
        if (n == NULL)
            return 1;
        n->v = i;
        n->next = head;
        head = n;
    }
    long total = 0;
    while (head != NULL) {
        struct node *n = head->next;
        total += head->v;
        free(head);
        head = n;
    }
    float *a = malloc(sizeof(float) * N), *b = malloc(sizeof(float) * N), *c = malloc(sizeof(float) * N);
    if (!a || !b || !c)
        return 1;
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i % 97);
        b[i] = 0.0f;
        c[i] = 0.0f;
        table[i] = (float)(i % 7);
    }
#pragma acc update device(table)
    double sum = 0.0;
    for (int round = 0; round < 3; round++) {
        // Freed and made again each round: the device copies' ids change between launches.
        float *scratch = malloc(sizeof(float) * N);
        if (scratch == NULL)
            return 1;
#pragma acc data copyin(a[0:N]) create(scratch[0:N]) copyout(b[0:N])
        {
#pragma acc parallel loop
            for (int i = 0; i < N; i++)
                scratch[i] = a[i] * 2.0f + table[i] + (float)round;
#pragma acc parallel loop
            for (int i = 0; i < N; i++)
                b[i] = scratch[i] + scratch[(i + 1) % N];
        }
#pragma acc parallel loop copy(c[0:N]) copyin(b[0:N])
        for (int i = 0; i < N; i++)
            c[i] += b[i] - table[i];
        for (int i = 0; i < N; i++)
            sum += b[i];
        free(scratch);
    }
    double csum = 0.0;
    for (int i = 0; i < N; i++)
        csum += c[i];
    printf("total=%ld sum=%.1f csum=%.1f b[17]=%.1f c[4999]=%.1f\n", total, sum, csum, b[17], c[N - 1]);
    free(a);
    free(b);
    free(c);
    return 0;
}
