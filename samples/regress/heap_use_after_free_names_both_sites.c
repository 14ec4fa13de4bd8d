// Issue 15 (calltree's memory: allocation table entries of 40 bytes, what an allocation was made
// as, where, and where it was freed kept as one interned record): a use after free still names
// the `malloc` call that made the block and the `free` call that freed it (C11 7.22.3p1: the
// lifetime of an allocated object ends at its deallocation; 7.22.3.3: `free`), whichever of
// several allocating and freeing sites they were, on both engines.
// expect-exit: 3
// expect-stderr: error[use-after-free]
// expect-stderr: struct node *n = malloc(sizeof *n);
// expect-stderr: free(head);
// expect-stderr-not: free(scratch);
#include <stdio.h>
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

static struct node *push(struct node *head, int key)
{
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        exit(1);
    n->key = key;
    n->next = head;
    return n;
}

static void drop_list(struct node *head)
{
    while (head != NULL) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
}

int main(void)
{
    int *scratch = calloc(8, sizeof *scratch);
    struct node *list = NULL;
    for (int i = 0; i < 6; i++)
        list = push(list, i);
    free(scratch);
    scratch = calloc(8, sizeof *scratch);
    struct node *third = list->next->next;
    drop_list(list);
    int sum = 0;
    for (int i = 0; i < 8; i++)
        sum += scratch[i];
    free(scratch);
    printf("sum %d\n", sum);
    printf("key %d\n", third->key); /* expect: use-after-free */
    return 0;
}
