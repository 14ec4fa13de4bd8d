// Exercises: sorting algorithms on the same pseudo-random data: insertion
// sort, merge sort (recursive, with a scratch buffer), quicksort
// (Lomuto), heap sort, checked against qsort; counts comparisons.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long comparisons;
static int less(int a, int b) { comparisons++; return a < b; }

static void insertion(int *v, int n) {
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && less(x, v[j])) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
}
static void merge_rec(int *v, int *tmp, int lo, int hi) {
    if (hi - lo < 2) return;
    int mid = lo + (hi - lo) / 2;
    merge_rec(v, tmp, lo, mid);
    merge_rec(v, tmp, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) tmp[k++] = less(v[j], v[i]) ? v[j++] : v[i++];
    while (i < mid) tmp[k++] = v[i++];
    while (j < hi) tmp[k++] = v[j++];
    memcpy(v + lo, tmp + lo, (hi - lo) * sizeof *v);
}
static void quick(int *v, int lo, int hi) {
    if (lo >= hi) return;
    int p = v[hi], i = lo;
    for (int j = lo; j < hi; j++)
        if (less(v[j], p)) { int t = v[i]; v[i] = v[j]; v[j] = t; i++; }
    int t = v[i]; v[i] = v[hi]; v[hi] = t;
    quick(v, lo, i - 1);
    quick(v, i + 1, hi);
}
static void sift(int *v, int n, int i) {
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && less(v[m], v[l])) m = l;
        if (r < n && less(v[m], v[r])) m = r;
        if (m == i) return;
        int t = v[i]; v[i] = v[m]; v[m] = t;
        i = m;
    }
}
static void heapsort_(int *v, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) sift(v, n, i);
    for (int e = n - 1; e > 0; e--) {
        int t = v[0]; v[0] = v[e]; v[e] = t;
        sift(v, e, 0);
    }
}
static int cmp(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

int main(void) {
    enum { N = 2000 };
    static int orig[N], ref[N], work[N], tmp[N];
    unsigned s = 12345;
    for (int i = 0; i < N; i++) { s = s * 1103515245u + 12345u; orig[i] = (int)((s >> 8) % 10000) - 5000; }
    memcpy(ref, orig, sizeof orig);
    qsort(ref, N, sizeof *ref, cmp);
    printf("min %d max %d median %d\n", ref[0], ref[N - 1], ref[N / 2]);
    const char *names[] = {"insertion", "merge", "quick", "heap"};
    for (int a = 0; a < 4; a++) {
        memcpy(work, orig, sizeof orig);
        comparisons = 0;
        switch (a) {
        case 0: insertion(work, N); break;
        case 1: merge_rec(work, tmp, 0, N); break;
        case 2: quick(work, 0, N - 1); break;
        case 3: heapsort_(work, N); break;
        }
        printf("%-9s comparisons=%ld sorted_ok=%d\n", names[a], comparisons, memcmp(work, ref, sizeof ref) == 0);
    }
    for (int i = 0; i < N; i += 250) printf("%d ", ref[i]);
    printf("\n");
    return 0;
}
