// §2.7.4: vector loops inside worker loops inside gang loops: a 3-level nest computing
// c[i][j][k] = i + j + k, every element once.
#include <stdio.h>
int main(void) {
    static int c[6][5][40];
#pragma acc parallel num_gangs(3) num_workers(2) vector_length(16) copyout(c)
    {
#pragma acc loop gang
        for (int i = 0; i < 6; i++) {
#pragma acc loop worker
            for (int j = 0; j < 5; j++) {
#pragma acc loop vector
                for (int k = 0; k < 40; k++) c[i][j][k] = i + j + k;
            }
        }
    }
    long s = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 40; k++) s += c[i][j][k];
    printf("sum = %ld\n", s);
    return 0;
}
