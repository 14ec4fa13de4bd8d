// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-line: 13
// Writing before the start of a global array through a negative index
// computed from the data.
#include <stdio.h>

int table[16];
int keys[] = {3, 9, 15, -1};

int main(void) {
    for (int i = 0; i < 4; i++) {
        table[keys[i]] = i + 1;
        printf("stored key %d\n", keys[i]);
    }
    return 0;
}
