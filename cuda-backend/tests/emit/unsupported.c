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
    /* A store in a condition of worker-single code in a vector loop: the workers of a lane have
       no barrier of their own to share the one evaluation. */
    static int hits[4];
#pragma acc parallel num_gangs(1) copy(hits)
    {
#pragma acc loop vector
        for (int i = 0; i < 4; i++)
            if (hits[i]++ == 0) hits[i] += 6;
    }
    return len[3] == 4 && total == 10.0L && hits[1] == 7 ? 0 : 1;
}
