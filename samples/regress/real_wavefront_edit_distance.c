// Issue 12 (real-code samples): a wavefront (anti-diagonal) dynamic program, the edit distance
// of two strings: the host walks the diagonals in order, each diagonal's cells are independent
// and computed by a parallel loop on the device copy that a data region keeps (§2.6.3); the
// cells of one diagonal read only the two previous diagonals.
#include <stdio.h>
#include <string.h>

#define MAXN 64

#pragma acc routine seq
static int min3(int a, int b, int c) { int m = a < b ? a : b; return m < c ? m : c; }

int main(void) {
    const char *s = "the quick brown fox jumps over the lazy dog";
    const char *t = "a quick brown dog jumped over the lazy fox";
    int n = (int)strlen(s), m = (int)strlen(t);
    static int D[MAXN + 1][MAXN + 1];
    char a[MAXN], b[MAXN];
    memcpy(a, s, n);
    memcpy(b, t, m);
    for (int i = 0; i <= n; i++) D[i][0] = i;
    for (int j = 0; j <= m; j++) D[0][j] = j;
#pragma acc data copyin(a, b) copy(D)
    {
        for (int d = 2; d <= n + m; d++) {
            int lo = d - m > 1 ? d - m : 1;
            int hi = d - 1 < n ? d - 1 : n;
#pragma acc parallel loop
            for (int i = lo; i <= hi; i++) {
                int j = d - i;
                int cost = a[i - 1] == b[j - 1] ? 0 : 1;
                D[i][j] = min3(D[i - 1][j] + 1, D[i][j - 1] + 1, D[i - 1][j - 1] + cost);
            }
        }
    }
    printf("edit distance = %d\n", D[n][m]);
    printf("D[10][10] = %d, D[20][25] = %d\n", D[10][10], D[20][25]);
    return 0;
}
