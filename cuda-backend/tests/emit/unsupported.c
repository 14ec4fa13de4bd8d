/* Forms the CUDA back-end does not translate yet: each must be reported, none may panic. */
#include <string.h>

int main(void) {
    static char names[4][8] = {"a", "bb", "ccc", "dddd"};
    static int len[4];
    long double total = 0.0L;
#pragma acc parallel loop copyin(names) copyout(len) reduction(+:total)
    for (int i = 0; i < 4; i++) {
        len[i] = (int)strlen(names[i]);
        total += len[i];
    }
    return len[3] == 4 && total == 10.0L ? 0 : 1;
}
