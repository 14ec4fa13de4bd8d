// accsim-flags: --threads 1
// Issue 15 (calltree, memory): host code that makes and frees many small heap blocks between
// launches, and writes a global array the launches map, runs as native code over a table of
// where each allocation's bytes are. That table is kept across launches (lending the allocation
// table to the device threads moves no host bytes); what changed in between (new blocks, freed
// ones, a global whose id named its device copy during the launch, OpenACC 2.0 §2.6.5) must be
// seen by the host after each launch: gcc's results, and no finding under `check`.
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define ROUNDS 40
#define ITEMS 300

static double g[N];

struct item {
    int key;
    struct item *next;
};

int main(void)
{
    double *a = malloc(N * sizeof *a);
    if (a == NULL)
        return 1;
    long checksum = 0;
    for (int i = 0; i < N; i++) {
        a[i] = i;
        g[i] = 0.5 * i;
    }
    for (int round = 0; round < ROUNDS; round++) {
        struct item *list = NULL;
        for (int k = 0; k < ITEMS; k++) {
            struct item *it = malloc(sizeof *it);
            if (it == NULL)
                return 1;
            it->key = k * (round + 1);
            it->next = list;
            list = it;
        }
#pragma acc parallel loop copy(a[0:N]) copyin(g)
        for (int i = 0; i < N; i++)
            a[i] = a[i] * 0.5 + g[i];
        for (int i = 0; i < N; i++)
            g[i] += 1.0;
        while (list != NULL) {
            struct item *next = list->next;
            checksum += list->key;
            free(list);
            list = next;
        }
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += a[i] + g[i];
    printf("checksum %ld sum %.6f a[7] %.6f g[7] %.6f\n", checksum, s, a[7], g[7]);
    free(a);
    return 0;
}
