// expect-exit: 2
// expect-stderr: error
// §2.6.5 restriction: a struct member may be specified, "However, the struct variable itself must
// be automatic, static or global, that is, not accessed via a pointer."
#include <stdio.h>
struct box { int vals[4]; };
static void fill(struct box *b) {
#pragma acc parallel loop copy(b->vals) /* expect: compile-error */
    for (int i = 0; i < 4; i++) b->vals[i] = i;
}
int main(void) {
    struct box b = {{0}};
    fill(&b);
    printf("%d\n", b.vals[3]);
    return 0;
}
