// expect-exit: 3
// expect-stderr: use-after-free
// expect-line: 18
// Reading a struct field through a pointer after the block was freed.
#include <stdio.h>
#include <stdlib.h>

struct item { int id; double weight; };

int main(void) {
    struct item *it = malloc(sizeof *it);
    if (!it) return 1;
    it->id = 7;
    it->weight = 2.5;
    printf("id %d\n", it->id);
    free(it);
    double w;
    w = it->weight;
    printf("%g\n", w);
    return 0;
}
