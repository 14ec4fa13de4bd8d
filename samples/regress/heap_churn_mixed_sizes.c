// Issue 15 (native heap routines that set their own span-table entry; slabs with a list of freed
// slots each, grown to large blocks): blocks of 1 to 300 bytes made by malloc, calloc and
// realloc and freed in a scrambled order, each block's bytes checked before it is freed or
// resized, then 300,000 list nodes (several large slabs, tables past 4 MiB) freed every other
// one, made again and freed from the back. A freed slot is reused by a block of its class:
// every block must still hold its own bytes, and new ones (malloc's too, here) start zeroed
// where calloc's must. Output gcc -O2's.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 4000
#define ROUNDS 60000
#define NODES 300000

struct node {
    long value;
    struct node *next;
    int tag;
};

static unsigned seed = 2024u;

static unsigned next_random(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static unsigned char mark(int slot, size_t i)
{
    return (unsigned char)(slot * 7 + i * 13 + 1);
}

/* Whether the first n bytes of block p of slot `slot` are its marks. */
static int intact(const unsigned char *p, int slot, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != mark(slot, i))
            return 0;
    return 1;
}

int main(void)
{
    static unsigned char *blocks[SLOTS];
    static size_t sizes[SLOTS];
    long made = 0, freed = 0, resized = 0, bad = 0, zeroed = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int s = (int)(next_random() % SLOTS);
        if (blocks[s] == NULL) {
            size_t n = 1 + next_random() % 300;
            unsigned char *p = (r % 3 == 0) ? calloc(n, 1) : malloc(n);
            if (p == NULL)
                return 1;
            if (r % 3 == 0) {
                size_t z = 0;
                while (z < n && p[z] == 0)
                    z++;
                zeroed += z == n;
            }
            for (size_t i = 0; i < n; i++)
                p[i] = mark(s, i);
            blocks[s] = p;
            sizes[s] = n;
            made++;
        } else if (next_random() % 4 == 0) {
            size_t n = 1 + next_random() % 300;
            size_t kept = n < sizes[s] ? n : sizes[s];
            bad += !intact(blocks[s], s, sizes[s]);
            unsigned char *p = realloc(blocks[s], n);
            if (p == NULL)
                return 1;
            bad += !intact(p, s, kept);
            for (size_t i = kept; i < n; i++)
                p[i] = mark(s, i);
            blocks[s] = p;
            sizes[s] = n;
            resized++;
        } else {
            bad += !intact(blocks[s], s, sizes[s]);
            free(blocks[s]);
            blocks[s] = NULL;
            freed++;
        }
    }
    /* What is left, freed from a scrambled order: odd slots upwards, then even ones downwards. */
    for (int s = 1; s < SLOTS; s += 2)
        if (blocks[s] != NULL) {
            bad += !intact(blocks[s], s, sizes[s]);
            free(blocks[s]);
            freed++;
        }
    for (int s = SLOTS - 2; s >= 0; s -= 2)
        if (blocks[s] != NULL) {
            bad += !intact(blocks[s], s, sizes[s]);
            free(blocks[s]);
            freed++;
        }
    printf("blocks: made %ld, resized %ld, freed %ld, calloc zeroed %ld, bad %ld\n", made, resized, freed,
           zeroed, bad);

    struct node *head = NULL;
    for (int i = 0; i < NODES; i++) {
        struct node *n = malloc(sizeof *n);
        if (n == NULL)
            return 1;
        n->value = i;
        n->tag = i % 7;
        n->next = head;
        head = n;
    }
    /* Every other node freed, then as many made again in their place. */
    long kept = 0;
    for (struct node *n = head; n != NULL && n->next != NULL; n = n->next) {
        struct node *gone = n->next;
        n->next = gone->next;
        free(gone);
    }
    for (struct node *n = head; n != NULL; n = n->next) {
        struct node *fresh = calloc(1, sizeof *fresh);
        if (fresh == NULL)
            return 1;
        bad += fresh->value != 0 || fresh->next != NULL || fresh->tag != 0;
        fresh->value = -n->value;
        fresh->next = n->next;
        n->next = fresh;
        n = fresh;
        kept++;
    }
    long sum = 0, count = 0;
    struct node **all = malloc(sizeof *all * (size_t)(2 * kept));
    if (all == NULL)
        return 1;
    for (struct node *n = head; n != NULL; n = n->next) {
        sum += n->value * (n->tag + 1);
        all[count++] = n;
    }
    while (count > 0)
        free(all[--count]);
    free(all);
    printf("nodes: kept %ld, sum %ld, bad %ld\n", kept, sum, bad);
    return 0;
}
