// Issue 12 item 8: GNU attributes where gcc accepts them and lang-c's grammar does not (gcc
// manual, "Type Attributes", "Statement Attributes", "Label Attributes"): between
// `struct`/`union`/`enum` and the tag (as <omp.h> writes them), as a `fallthrough` statement,
// and after a label. accsim must parse them and run the program as gcc does.
#include <stdio.h>

typedef struct __attribute__((aligned(8))) particle {
    double x, v;
} particle_t;

union __attribute__((__may_alias__)) bits {
    double d;
    unsigned long long u;
};

enum __attribute__((unused)) phase { WARMUP, STEADY, DONE };

static int weight(enum phase p)
{
    int w = 0;
    switch (p) {
    case WARMUP:
        w += 1;
        __attribute__((fallthrough));
    case STEADY:
        w += 10;
        break;
    default:
        w = -1;
    }
    return w;
}

int main(void)
{
    particle_t ps[4];
    for (int i = 0; i < 4; i++) {
        ps[i].x = i;
        ps[i].v = 0.5 * i;
    }
#pragma acc parallel loop copy(ps)
    for (int i = 0; i < 4; i++)
        ps[i].x += ps[i].v;

    union bits b;
    b.d = ps[3].x;
    int total = weight(WARMUP) + weight(STEADY) + weight(DONE);
    if (total < 0)
        goto out;
    printf("%.1f %llx %d\n", ps[3].x, b.u, total);
out: __attribute__((unused));
    return 0;
}
