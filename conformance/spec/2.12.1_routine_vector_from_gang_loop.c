// §2.12.1.3: a routine vector "may be called from within a loop that has the gang clause"; its
// vector loop runs within the calling gang.
#include <stdio.h>
#define N 8
#define M 64
#pragma acc routine vector
static void scale_row(float *row, int m, float f) {
#pragma acc loop vector
    for (int j = 0; j < m; j++) row[j] *= f;
}
int main(void) {
    static float a[N][M];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) a[i][j] = 1.0f;
#pragma acc parallel loop gang copy(a)
    for (int i = 0; i < N; i++) scale_row(a[i], M, (float)(i + 1));
    printf("%.1f %.1f %.1f\n", a[0][0], a[3][10], a[7][63]);
    return 0;
}
