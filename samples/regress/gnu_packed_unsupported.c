// Issue 12 item 8: `__attribute__((packed))` removes padding (gcc manual, "Common Type
// Attributes"), and makes an enum as narrow as its values; accsim does not model packed layouts,
// so it must say so instead of running the program with a different `sizeof` than gcc's.
// expect-exit: 2
// expect-stderr: not supported by accsim: the `packed` attribute
// expect-stderr: gnu_packed_unsupported.c:14:18
// expect-stderr: gnu_packed_unsupported.c:16:21
#include <stdio.h>

struct header {
    unsigned char kind;
    unsigned int length;
    unsigned short crc;
} __attribute__((packed)); /* expect: compile-error */

enum __attribute__((packed)) colour { RED, GREEN, BLUE }; /* expect: compile-error */

int main(void)
{
    struct header h = {1, 40, 0xbeef};
    enum colour c = GREEN;
    printf("%zu %u %zu %d\n", sizeof h, h.length, sizeof c, c);
    return 0;
}
