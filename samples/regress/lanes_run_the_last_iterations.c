// Issue 15 (native engine, compile share): a counted loop whose body is a window of more
// accesses than the lanes unroll (13 taps here) runs in lanes to its last iteration: a last
// group of lanes ends at the last iteration, running again iterations an earlier group ran
// (storing the same values), and the loop has no scalar direct version. With fewer iterations
// than a group, or a store that overlaps a read (in place, or through two pointers to one
// array), it runs its checked version; a read-modify-write of the element it stores keeps its
// direct version. Every trip count from 0 to 13 (each remainder of groups of 4 lanes), the
// body's locals read after the loop (a float, an int and a constant temporary, a derived index,
// the counter, the window's own counter), in a host function and in a `parallel loop`, must
// give what the iterations compute in order (gcc's output).
#include <stdio.h>

#define T 13
#define N 32

static float wf[T];
static int wi[T];

/* out[i] = sum of wf[k] * a[i + k]; the body's locals printed after the loop. */
static void taps_f(float *out, const float *a, int n)
{
    float s = -1.0f;
    int i, j = -7, k = -3, c = -5;
    for (i = 0; i < n; i++) {
        j = i + 1;
        s = 0.0f;
        for (k = 0; k < T; k++)
            s += wf[k] * a[i + k];
        c = 11;
        out[j - 1] = s;
    }
    printf("taps_f n=%d: i=%d j=%d k=%d c=%d s=%.3f\n", n, i, j, k, c, s);
}

/* The same on ints (lanes of 32-bit integers: `+`, `&`, `^`). */
static void taps_i(int *out, const int *b, int n)
{
    int t = -1, i, k = -3;
    for (i = 2; i < n + 2; i++) {
        t = 0;
        for (k = 0; k < T; k++)
            t = t + (b[i + k - 2] & wi[k]);
        out[i] = t ^ 5;
    }
    printf("taps_i n=%d: i=%d k=%d t=%d\n", n, i, k, t);
}

/* A read-modify-write of the stored element: the direct version stays. */
static void taps_add(float *acc, const float *a, int n)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int k = 0; k < T; k++)
            s += wf[k] * a[i + k];
        acc[i] += s;
    }
}

static void print_f(const char *what, const float *x, int n)
{
    double sum = 0.0;
    printf("%s:", what);
    for (int i = 0; i < n; i++) {
        printf(" %.3f", x[i]);
        sum += x[i] * (i + 1);
    }
    printf(" | %.3f\n", sum);
}

int main(void)
{
    float a[N + T], out[N + T], acc[N];
    int b[N + T], outi[N + T];
    for (int k = 0; k < T; k++) {
        wf[k] = (float)(k % 5) - 1.5f;
        wi[k] = 0x7f ^ (k * 37);
    }
    for (int n = 0; n <= 13; n++) {
        for (int i = 0; i < N + T; i++) {
            a[i] = (float)((i * 7) % 11) * 0.5f;
            b[i] = (i * 2654435761u) >> 7 & 0xffff;
            out[i] = -9.0f;
            outi[i] = -9;
        }
        for (int i = 0; i < N; i++)
            acc[i] = (float)i;
        taps_f(out, a, n);
        print_f("apart", out, n + 2);
        taps_i(outi, b, n);
        printf("ints:");
        for (int i = 0; i < n + 4; i++)
            printf(" %d", outi[i]);
        printf("\n");
        taps_add(acc, a, n);
        print_f("acc", acc, n + 1);
        /* In place: each store overlaps the reads of the iterations before it. */
        taps_f(a, a, n);
        print_f("in place", a, n + T);
        /* Through two pointers to one array, one element apart. */
        taps_f(a + 1, a, n);
        print_f("shifted", a, n + T);
    }

    /* The same window in a kernel, rows of every length from 0 to 13. */
    float img[14 * (N + T)], res[14 * N];
    for (int i = 0; i < 14 * (N + T); i++)
        img[i] = (float)((i * 5) % 13) - 6.0f;
    for (int i = 0; i < 14 * N; i++)
        res[i] = 0.0f;
    float w[T];
    for (int k = 0; k < T; k++)
        w[k] = wf[k];
#pragma acc data copyin(img, w) copy(res)
    for (int n = 0; n <= 13; n++) {
#pragma acc parallel loop
        for (int x = 0; x < n; x++) {
            float s = 0.0f;
            for (int k = 0; k < T; k++)
                s += w[k] * img[n * (N + T) + x + k];
            res[n * N + x] = s;
        }
    }
    for (int n = 0; n <= 13; n++)
        print_f("kernel", res + n * N, n + 1);
    return 0;
}
