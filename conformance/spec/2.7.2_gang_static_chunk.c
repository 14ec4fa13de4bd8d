// §2.7.2: "If the static argument appears with an integer expression, that expression is used as
// a chunk size" -- gang(static:3): every iteration runs once, whatever gang gets it.
#include <stdio.h>
int main(void) {
    int hit[50];
    for (int i = 0; i < 50; i++) hit[i] = 0;
#pragma acc parallel num_gangs(4) copy(hit)
    {
#pragma acc loop gang(static:3)
        for (int i = 0; i < 50; i++) hit[i] += i;
    }
    int ok = 1;
    for (int i = 0; i < 50; i++) ok &= hit[i] == i;
    printf("each iteration once: %d\n", ok);
    return 0;
}
