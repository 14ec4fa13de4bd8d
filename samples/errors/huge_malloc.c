// expect-exit: 4
// expect-stderr: memory limit
// expect-line: 11
// Asking for 4 TiB: far beyond any memory limit accsim sets, so accsim
// stops at the allocation instead of returning a block.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    size_t n = (size_t)1 << 42;
    char *p = malloc(n);
    if (p) p[n - 1] = 1;
    printf("%d\n", p != NULL);
    free(p);
    return 0;
}
