// §2.9: the combined parallel loop takes "any of the loop clauses": `collapse(2)` schedules both
// loops' iterations together (§2.7.1) and `reduction(max:m)` combines the threads' maxima into m
// (§2.7.11).
#include <stdio.h>
#define R 30
#define C 25
int main(void) {
    static int a[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) a[i][j] = (i * 37 + j * 11) % 101;
    int m = -1;
#pragma acc parallel loop collapse(2) reduction(max:m) copyin(a)
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            if (a[i][j] > m) m = a[i][j];
    printf("max = %d\n", m);
    return 0;
}
