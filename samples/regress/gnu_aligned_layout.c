// Issue 12 item 8: GNU `aligned` changes struct layout (gcc manual, "Common Type Attributes",
// "Common Variable Attributes"): on a member it raises the member's alignment (gcc's <omp.h>
// declares `omp_lock_t` that way), on a struct type the record's alignment and size. accsim
// parsed the attributes but laid the structs out as if they were absent.
#include <stddef.h>
#include <stdio.h>
#include <omp.h>

struct cell {
    char tag;
    double value __attribute__((aligned(32)));
};

struct __attribute__((aligned(64))) cache_line {
    long hits;
};

typedef struct {
    float x, y;
} __attribute__((__aligned__(16))) vec2;

int main(void)
{
    struct cell cells[3];
    vec2 points[4];
    for (int i = 0; i < 3; i++) {
        cells[i].tag = 'a' + i;
        cells[i].value = i * 0.5;
    }
    for (int i = 0; i < 4; i++) {
        points[i].x = i;
        points[i].y = -i;
    }
#pragma acc parallel loop copy(cells, points)
    for (int i = 0; i < 3; i++) {
        cells[i].value += points[i + 1].x;
        points[i].y *= 2.0f;
    }
    printf("cell: size %zu align %zu, value at %zu\n", sizeof(struct cell), _Alignof(struct cell), offsetof(struct cell, value));
    printf("cache_line: size %zu align %zu\n", sizeof(struct cache_line), _Alignof(struct cache_line));
    printf("vec2: size %zu, array of 4: %zu\n", sizeof(vec2), sizeof points);
    printf("omp_lock_t: size %zu align %zu; omp_nest_lock_t: size %zu align %zu\n", sizeof(omp_lock_t), _Alignof(omp_lock_t),
           sizeof(omp_nest_lock_t), _Alignof(omp_nest_lock_t));
    printf("%c %.1f %.1f\n", cells[2].tag, cells[2].value, points[2].y);
    return 0;
}
