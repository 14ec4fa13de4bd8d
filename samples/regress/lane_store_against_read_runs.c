// Issue 15 (native engine, compile share): a loop's lane version runs only when no store
// overlaps another access's bytes over the whole loop (C11 §5.1.2.3: the lanes must compute
// what the iterations compute in order). The reads of an unrolled window `a[i + d]` and of its
// weights `w[d + 2]` are tested against the store as one interval each (jit/src/apart.rs,
// covering reads). Separate arrays run in lanes; a store into the middle of the window's array
// (an in-place smoothing through an offset pointer), into its weights, or just past either end
// of the window's reads changes what later iterations read, and every result must be what the
// iterations compute in order (gcc's output) — windows counted up, counted down (`a[i - d]`:
// the address falls as the constant grows) and written out.
#include <stdio.h>
#include <stdlib.h>

#define N 4096

/* A five-point window counted up, with its weights. */
static void smooth_up(float *out, const float *a, const float *w, int n)
{
    for (int i = 2; i < n - 2; i++) {
        float s = 0.0f;
        for (int d = -2; d <= 2; d++)
            s += w[d + 2] * a[i + d];
        out[i] = s;
    }
}

/* The same window counted down through the array. */
static void smooth_down(float *out, const float *a, const float *w, int n)
{
    for (int i = 2; i < n - 2; i++) {
        float s = 0.0f;
        for (int d = -2; d <= 2; d++)
            s += w[d + 2] * a[i - d];
        out[i] = s;
    }
}

/* Three reads written out. */
static void three(float *out, const float *a, int n)
{
    for (int i = 1; i < n - 1; i++)
        out[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
}

static double sum(const float *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * (double)(i % 7 + 1);
    return s;
}

static void fill(float *x, int n, int seed)
{
    for (int i = 0; i < n; i++)
        x[i] = (float)((i * 37 + seed) % 101) * 0.125f;
}

int main(void)
{
    float *a = malloc(sizeof(float) * (N + 16));
    float *out = malloc(sizeof(float) * (N + 16));
    float *w = malloc(sizeof(float) * (N + 16));
    if (!a || !out || !w)
        return 1;
    for (int shift = -3; shift <= 3; shift++) {
        /* Separate arrays, then the store `shift` elements off the window's array. */
        fill(a, N + 16, 1);
        fill(w, 5, 2);
        smooth_up(out, a + 8, w, N);
        printf("up apart %d: %.4f\n", shift, sum(out, N));
        smooth_up(a + 8 + shift, a + 8, w, N);
        printf("up in place %d: %.4f\n", shift, sum(a, N + 16));
        fill(a, N + 16, 3);
        smooth_down(a + 8 + shift, a + 8, w, N);
        printf("down in place %d: %.4f\n", shift, sum(a, N + 16));
        fill(a, N + 16, 4);
        three(a + 8 + shift, a + 8, N);
        printf("three in place %d: %.4f\n", shift, sum(a, N + 16));
        /* The store runs over the weights: the first iterations rewrite them. */
        fill(a, N + 16, 5);
        fill(w, N + 16, 6);
        smooth_up(w + 3 + shift, a + 8, w + 3, N);
        printf("over the weights %d: %.4f\n", shift, sum(w, N + 16));
    }
    free(a);
    free(out);
    free(w);
    return 0;
}
