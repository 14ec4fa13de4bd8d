// §2.6.1: the loop variable of a loop directive, declared before the construct, is private to
// each thread executing the loop; every iteration sees its own value.
#include <stdio.h>
int main(void) {
    int j;
    int out[100];
#pragma acc parallel num_gangs(4) copyout(out)
    {
#pragma acc loop gang
        for (j = 0; j < 100; j++) out[j] = j + 1;
    }
    long s = 0;
    for (int k = 0; k < 100; k++) s += out[k];
    printf("sum = %ld\n", s);
    return 0;
}
