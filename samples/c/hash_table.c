// Exercises: a chained hash table with string keys (strdup'd), FNV-1a
// hashing, insert/update/lookup/delete, rehashing when the load factor
// passes 0.75, and a word-frequency count over a fixed text.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct entry { char *key; int value; struct entry *next; };
struct table { struct entry **buckets; size_t nbuckets, count; };

static uint32_t hash(const char *s) {
    uint32_t h = 2166136261u;
    while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
    return h;
}
static void table_init(struct table *t, size_t n) {
    t->buckets = calloc(n, sizeof *t->buckets);
    if (!t->buckets) exit(1);
    t->nbuckets = n;
    t->count = 0;
}
static void rehash(struct table *t) {
    struct table nt;
    table_init(&nt, t->nbuckets * 2);
    for (size_t i = 0; i < t->nbuckets; i++) {
        struct entry *e = t->buckets[i];
        while (e) {
            struct entry *nx = e->next;
            size_t b = hash(e->key) % nt.nbuckets;
            e->next = nt.buckets[b];
            nt.buckets[b] = e;
            e = nx;
        }
    }
    nt.count = t->count;
    free(t->buckets);
    *t = nt;
    printf("  rehashed to %zu buckets\n", t->nbuckets);
}
static int *lookup(struct table *t, const char *key) {
    for (struct entry *e = t->buckets[hash(key) % t->nbuckets]; e; e = e->next)
        if (strcmp(e->key, key) == 0) return &e->value;
    return NULL;
}
static void put(struct table *t, const char *key, int value) {
    int *v = lookup(t, key);
    if (v) { *v = value; return; }
    if ((t->count + 1) * 4 > t->nbuckets * 3) rehash(t);
    struct entry *e = malloc(sizeof *e);
    if (!e) exit(1);
    e->key = strdup(key);
    e->value = value;
    size_t b = hash(key) % t->nbuckets;
    e->next = t->buckets[b];
    t->buckets[b] = e;
    t->count++;
}
static int del(struct table *t, const char *key) {
    struct entry **pp = &t->buckets[hash(key) % t->nbuckets];
    for (; *pp; pp = &(*pp)->next)
        if (strcmp((*pp)->key, key) == 0) {
            struct entry *d = *pp;
            *pp = d->next;
            free(d->key);
            free(d);
            t->count--;
            return 1;
        }
    return 0;
}
static void table_free(struct table *t) {
    for (size_t i = 0; i < t->nbuckets; i++) {
        struct entry *e = t->buckets[i];
        while (e) { struct entry *n = e->next; free(e->key); free(e); e = n; }
    }
    free(t->buckets);
}
static int cmp_entries(const void *a, const void *b) {
    const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;
    if (x->value != y->value) return y->value - x->value;
    return strcmp(x->key, y->key);
}

int main(void) {
    struct table t;
    table_init(&t, 4);
    const char *text = "it was the best of times it was the worst of times it was the age of wisdom "
                       "it was the age of foolishness it was the epoch of belief it was the epoch of "
                       "incredulity it was the season of light it was the season of darkness";
    char word[32];
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        size_t n = 0;
        while (*p && *p != ' ' && n < sizeof word - 1) word[n++] = *p++;
        word[n] = 0;
        if (n) {
            int *v = lookup(&t, word);
            put(&t, word, v ? *v + 1 : 1);
        }
    }
    printf("distinct words %zu buckets %zu\n", t.count, t.nbuckets);
    struct entry **all = malloc(t.count * sizeof *all);
    if (!all) return 1;
    size_t k = 0;
    for (size_t i = 0; i < t.nbuckets; i++)
        for (struct entry *e = t.buckets[i]; e; e = e->next) all[k++] = e;
    qsort(all, k, sizeof *all, cmp_entries);
    for (size_t i = 0; i < k; i++) printf("%-12s %d\n", all[i]->key, all[i]->value);
    free(all);
    int d1 = del(&t, "was");
    int d2 = del(&t, "was");
    printf("delete 'was': %d, again: %d, count %zu\n", d1, d2, t.count);
    int *v = lookup(&t, "times");
    printf("times -> %d, was -> %s\n", v ? *v : -1, lookup(&t, "was") ? "present" : "absent");
    table_free(&t);
    return 0;
}
