// expect-exit: 3
// expect-stderr: double-free
// expect-line: 16
// Freeing the same block twice through two aliases.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char *buf = malloc(32);
    if (!buf) return 1;
    char *alias = buf;
    buf[0] = 'x';
    buf[1] = 0;
    printf("%s\n", buf);
    free(buf);
    free(alias);
    return 0;
}
