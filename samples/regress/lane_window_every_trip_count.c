// Issue 15 (native engine, compile share): a counted loop whose body holds unrolled loops (a
// window) runs in lanes, the iterations the lanes leave (the last group's worth: the scalar
// loop always runs the last iteration, so that the body's locals end with its values) in a
// scalar version, and the whole loop in the scalar version when the lanes' checks fail (a store
// into the window's own array). Every trip count from 0 to 13 (each remainder of groups of 4
// float or 2 double lanes), windows in place and apart, in a host function and in a `parallel
// loop` with a constant step, must give what the iterations compute in order (gcc's output).
// Session 14 tried running those iterations in the checked version instead of a direct one
// (less code to compile); this program guarded that change, which was reverted for its run time.
#include <stdio.h>
#include <stdlib.h>

#define W 16

static void window_f(float *out, const float *a, const float *w, int n)
{
    for (int i = 2; i < n + 2; i++) {
        float s = 0.0f;
        for (int d = -2; d <= 2; d++)
            s += w[d + 2] * a[i + d];
        out[i] = s;
    }
}

static void window_d(double *out, const double *a, const double *w, int n)
{
    for (int i = 1; i < n + 1; i++) {
        double s = 0.0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                s += w[(dy + 1) * 3 + dx + 1] * a[(dy + 1) * W + i + dx];
        out[i] = s;
    }
}

int main(void)
{
    float fa[64], fo[64], fw[5] = { 0.5f, 1.0f, 2.0f, 1.0f, 0.5f };
    double da[3 * W + 4], dout[W + 4], dw[9];
    for (int k = 0; k < 9; k++)
        dw[k] = 0.25 * (k + 1);
    for (int n = 0; n <= 13; n++) {
        double total = 0.0;
        for (int k = 0; k < 64; k++) {
            fa[k] = (float)((k * 7) % 13);
            fo[k] = -1.0f;
        }
        for (int k = 0; k < 3 * W + 4; k++)
            da[k] = (double)((k * 5) % 11) - 3.0;
        for (int k = 0; k < W + 4; k++)
            dout[k] = 0.0;
        window_f(fo, fa, fw, n);
        for (int k = 0; k < 64; k++)
            total += fo[k] * (k + 1);
        /* In place: each store is read by the next iterations' windows. */
        window_f(fa, fa, fw, n);
        for (int k = 0; k < 64; k++)
            total += fa[k] * (k + 3);
        if (n <= W - 2) {
            window_d(dout, da, dw, n);
            for (int k = 0; k < W + 4; k++)
                total += dout[k] * (k + 5);
            /* In place, through the middle row. */
            window_d(da + W, da, dw, n);
            for (int k = 0; k < 3 * W + 4; k++)
                total += da[k] * (k + 7);
        }
        /* The same window in a kernel, over a row of n + 4. */
        float *img = malloc(sizeof(float) * (n + 4));
        float *res = malloc(sizeof(float) * (n + 4));
        for (int k = 0; k < n + 4; k++) {
            img[k] = (float)((k * 3) % 7);
            res[k] = 0.0f;
        }
#pragma acc parallel loop copyin(img[0:n+4], fw) copy(res[0:n+4])
        for (int i = 2; i < n + 2; i++) {
            float s = 0.0f;
            for (int d = -2; d <= 2; d++)
                s += fw[d + 2] * img[i + d];
            res[i] = s;
        }
        for (int k = 0; k < n + 4; k++)
            total += res[k] * (k + 11);
        free(img);
        free(res);
        printf("n=%d %.6f\n", n, total);
    }
    return 0;
}
