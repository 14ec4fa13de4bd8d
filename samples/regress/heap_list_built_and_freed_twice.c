// expect-exit: 3
// expect-stderr: error[double-free]
// expect-stderr: heap_list_built_and_freed_twice.c:58:5
// Issue 15 (calltree): native code calls `malloc`, `calloc` and `free` through the shim's own
// functions, without the interpreter's call path; they must still give C's results and catch
// misuse where the interpreter does (C11 7.22.3: `calloc` zeroes its block and gives a null
// pointer when `n * size` overflows; `free` of a block already freed is undefined, which accsim
// reports at the second `free`). A list of nodes is built with both, summed and freed, a
// calloc that cannot fit is checked, and one node is freed twice.
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

struct item {
    long key;
    struct item *next;
};

static struct item *push(struct item *head, long key, int zeroed)
{
    struct item *it = zeroed ? calloc(1, sizeof *it) : malloc(sizeof *it);
    if (it == NULL)
        return head;
    if (!zeroed)
        it->key = 0;
    it->key += key;
    it->next = head;
    return it;
}

static long drain(struct item *head, struct item **keep)
{
    long sum = 0;
    while (head != NULL) {
        struct item *next = head->next;
        sum += head->key;
        if (head->key == 7)
            *keep = head;
        free(head);
        head = next;
    }
    return sum;
}

int main(void)
{
    long total = 0;
    struct item *kept = NULL;
    for (int round = 0; round < 200; round++) {
        struct item *head = NULL;
        for (long k = 0; k < 50; k++)
            head = push(head, k, (int)(k % 2));
        total += drain(head, &kept);
    }
    void *huge = calloc(SIZE_MAX / 2, 4);
    printf("total %ld, overflowing calloc %s\n", total, huge == NULL ? "is null" : "is not null");
    fflush(stdout);
    free(kept); /* expect: double-free */
    return 0;
}
