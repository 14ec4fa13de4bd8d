// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-line: 17
// Reading past the end of a malloc'd block: 10 ints allocated, index 10
// read through a helper function.
#include <stdio.h>
#include <stdlib.h>

static int get(const int *v, int i) {
    int unused = 0;
    (void)unused;
    if (i < 0) return 0;
    if (i > 1000) return 0;
    printf("get(%d)\n", i);
    int r;
    r = 0;
    r = v[i];
    return r;
}

int main(void) {
    int *v = malloc(10 * sizeof *v);
    if (!v) return 1;
    for (int i = 0; i < 10; i++) v[i] = i;
    int s = 0;
    for (int i = 0; i <= 10; i++) s += get(v, i);
    printf("%d\n", s);
    free(v);
    return 0;
}
