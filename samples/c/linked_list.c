// Exercises: a singly linked list on the heap: push front/back, insert
// sorted, delete by value (pointer-to-pointer idiom), reverse in place,
// length, printing, and freeing every node.
#include <stdio.h>
#include <stdlib.h>

struct node { int val; struct node *next; };

static struct node *new_node(int v) {
    struct node *n = malloc(sizeof *n);
    if (!n) exit(1);
    n->val = v;
    n->next = NULL;
    return n;
}
static void push_front(struct node **head, int v) { struct node *n = new_node(v); n->next = *head; *head = n; }
static void push_back(struct node **head, int v) {
    while (*head) head = &(*head)->next;
    *head = new_node(v);
}
static void insert_sorted(struct node **head, int v) {
    while (*head && (*head)->val < v) head = &(*head)->next;
    struct node *n = new_node(v);
    n->next = *head;
    *head = n;
}
static int remove_val(struct node **head, int v) {
    int removed = 0;
    while (*head) {
        if ((*head)->val == v) { struct node *d = *head; *head = d->next; free(d); removed++; }
        else head = &(*head)->next;
    }
    return removed;
}
static struct node *reverse(struct node *h) {
    struct node *prev = NULL;
    while (h) { struct node *nx = h->next; h->next = prev; prev = h; h = nx; }
    return prev;
}
static void print(const char *label, const struct node *h) {
    printf("%s:", label);
    int len = 0;
    for (; h; h = h->next, len++) printf(" %d", h->val);
    printf(" (len %d)\n", len);
}
static void free_all(struct node *h) { while (h) { struct node *n = h->next; free(h); h = n; } }

int main(void) {
    struct node *list = NULL;
    for (int i = 0; i < 5; i++) push_front(&list, i);
    for (int i = 10; i < 13; i++) push_back(&list, i);
    print("built", list);
    list = reverse(list);
    print("reversed", list);
    push_back(&list, 3);
    printf("removed %d copies of 3\n", remove_val(&list, 3));
    printf("removed %d copies of 99\n", remove_val(&list, 99));
    print("after remove", list);
    free_all(list);
    struct node *sorted = NULL;
    int vals[] = {42, 7, 19, 7, 100, -3, 55, 0};
    for (int i = 0; i < 8; i++) insert_sorted(&sorted, vals[i]);
    print("sorted", sorted);
    long sum = 0;
    for (struct node *p = sorted; p; p = p->next) sum += p->val;
    printf("sum %ld\n", sum);
    free_all(sorted);
    struct node *big = NULL;
    for (int i = 0; i < 10000; i++) push_front(&big, i);
    big = reverse(big);
    long chk = 0;
    int idx = 0;
    for (struct node *p = big; p; p = p->next) chk += (long)p->val * (idx++ % 3);
    printf("big checksum %ld\n", chk);
    free_all(big);
    return 0;
}
