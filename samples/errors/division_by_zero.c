// expect-exit: 3
// expect-stderr: division by zero
// expect-line: 12
// Integer division by zero (the divisor is computed at run time).
#include <stdio.h>

int main(void) {
    int counts[4] = {3, 2, 1, 0};
    int total = 60;
    for (int i = 0; i < 4; i++) {
        int share;
        share = total / counts[i];
        printf("share %d\n", share);
    }
    return 0;
}
