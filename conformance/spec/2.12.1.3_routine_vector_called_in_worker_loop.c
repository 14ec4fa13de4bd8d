// §2.12.1.3: "a procedure with a routine vector directive may be called from within a loop that
// has the gang clause or the worker clause, but not from within a loop that has the vector
// clause." Each worker's call shares the routine's vector loop among that worker's lanes.
#include <stdio.h>
#define N 6
#define M 64
#pragma acc routine vector
static void add_one(int *v, int n) {
#pragma acc loop vector
    for (int j = 0; j < n; j++) v[j] += 1;
}
int main(void) {
    static int a[N][M];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) a[i][j] = i * j;
#pragma acc parallel loop gang worker num_workers(2) vector_length(32) copy(a)
    for (int i = 0; i < N; i++) add_one(a[i], M);
    long s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) s += a[i][j];
    printf("a[5][63] = %d, sum = %ld\n", a[5][63], s);
    return 0;
}
