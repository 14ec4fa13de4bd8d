// §2.7.7: tile(4,4) strip-mines both loops into tile and element loops; every element is
// computed once.
#include <stdio.h>
int main(void) {
    static float m[10][13];
#pragma acc parallel loop tile(4, 4) copyout(m)
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 13; j++) m[i][j] = i * 0.5f + j;
    double s = 0;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 13; j++) s += m[i][j];
    printf("m[9][12] = %.1f, sum = %.1f\n", m[9][12], s);
    return 0;
}
