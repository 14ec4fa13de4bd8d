// Issue 15 (native heap routines find the thread's span table in the context): host code
// builds a list with `malloc`, a parallel loop's gangs make and free scratch blocks in a
// `routine seq` (a device view's table, on the same threads), and host code then goes on
// making, reading and freeing blocks of its own. Each side's blocks are read back through
// its own table: the sums are gcc's.
#include <stdio.h>
#include <stdlib.h>

#define N 2000
#define M 256

struct item {
    long value;
    struct item *next;
};

static struct item *push(struct item *list, long v)
{
    struct item *it = malloc(sizeof *it);
    if (it == NULL)
        exit(1);
    it->value = v;
    it->next = list;
    return it;
}

static long total(const struct item *list)
{
    long s = 0;
    for (; list != NULL; list = list->next)
        s += list->value;
    return s;
}

static void release(struct item *list)
{
    while (list != NULL) {
        struct item *next = list->next;
        free(list);
        list = next;
    }
}

#pragma acc routine seq
static long scratch(int i)
{
    long *w = malloc(sizeof(long) * (size_t)(1 + i % 7));
    if (w == NULL)
        return -1;
    long s = 0;
    for (int k = 0; k <= i % 7; k++) {
        w[k] = (long)i * k;
        s += w[k];
    }
    free(w);
    return s;
}

int main(void)
{
    struct item *list = NULL;
    for (int i = 0; i < N; i++)
        list = push(list, i);
    long out[M];
#pragma acc parallel loop copyout(out[0:M])
    for (int i = 0; i < M; i++)
        out[i] = scratch(i);
    long dev = 0;
    for (int i = 0; i < M; i++)
        dev += out[i];
    for (int i = 0; i < N; i++)
        list = push(list, 3 * i);
    printf("host %ld device %ld\n", total(list), dev);
    release(list);
    return 0;
}
