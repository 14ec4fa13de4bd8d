// §2.7.2: "Two gang loops in the same parallel region with the same number of iterations, and
// with static clauses with the same argument, will assign the iterations to gangs in the same
// manner." So the second loop reads only elements its own gang wrote in the first: no race.
#include <stdio.h>
int main(void) {
    int t[60], out[60];
#pragma acc parallel num_gangs(4) create(t) copyout(out)
    {
#pragma acc loop gang(static:5)
        for (int i = 0; i < 60; i++) t[i] = i * i;
#pragma acc loop gang(static:5)
        for (int i = 0; i < 60; i++) out[i] = t[i] + 1;
    }
    printf("%d %d %d\n", out[0], out[7], out[59]);
    return 0;
}
