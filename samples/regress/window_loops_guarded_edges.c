// Issue 15 (native engine, compile share): a counted loop whose body holds small constant
// loops (a 3 x 3 window) runs, on the native engine, a direct version with the window unrolled
// when every access's bounds hold at the loop's ends, and otherwise its checked version, whose
// window stays a loop (two translations of the same C semantics, C11 §6.8.5.3; the interpreter
// runs neither). Here the same blur runs over the interior (every access in bounds: the direct
// version), over the whole image with `if` guards at the edges (the guarded accesses would leave
// the array at the loop's ends: the checked version), through a row pointer into the middle of
// the array (accesses based on two pointers to one allocation), on the host and in a `parallel
// loop collapse(2)` (§2.7.1), with a scalar named in a data clause that a kernel writes and
// `update host` brings back between launches (§2.6.5, §2.14.4). The weights are filled by a
// constant loop of `main` outside any other loop. Each line is what gcc prints.
#include <stdio.h>

#define W 40
#define H 24

static float img[W * H], out[W * H], wt[9];
/* All values are small whole numbers: every sum is exact, in any order. */

/* The interior: rows and columns 1 .. side-2. */
static void blur_interior(const float *in, float *res, const float *w)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += w[(dy + 1) * 3 + (dx + 1)] * in[(y + dy) * W + (x + dx)];
            res[y * W + x] = s;
        }
}

/* Every pixel; the window's outside pixels skipped. */
static void blur_guarded(const float *in, float *res, const float *w)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (y + dy >= 0 && y + dy < H && x + dx >= 0 && x + dx < W)
                        s += w[(dy + 1) * 3 + (dx + 1)] * in[(y + dy) * W + (x + dx)];
            res[y * W + x] = s;
        }
}

/* One row through pointers to the rows above, at and below it. */
static float row_sum(const float *above, const float *at, const float *below, int n)
{
    float s = 0.0f;
    for (int x = 1; x < n - 1; x++)
        for (int dx = -1; dx <= 1; dx++)
            s += above[x + dx] + 2.0f * at[x + dx] + below[x + dx];
    return s;
}

static double checksum(const float *a)
{
    double s = 0.0;
    for (int i = 0; i < W * H; i++)
        s += a[i] * (double)(i % 7 + 1);
    return s;
}

int main(void)
{
    long total = 0;
    float scale = 1.0f;
    for (int k = 0; k < 9; k++)
        wt[k] = (float)(1 + (k % 3) * (k / 3));
    for (int i = 0; i < W * H; i++)
        img[i] = (float)((i * 7) % 23) - 5.0f;

    blur_interior(img, out, wt);
    printf("host interior %.1f\n", checksum(out));
    blur_guarded(img, out, wt);
    printf("host guarded  %.1f\n", checksum(out));
    printf("rows %.1f %.1f\n", row_sum(img, img + W, img + 2 * W, W), row_sum(img + (H - 3) * W, img + (H - 2) * W, img + (H - 1) * W, W));

    float *src = img, *dst = out;
#pragma acc data copyin(img, wt) copy(out, scale)
    {
        for (int r = 0; r < 2; r++) {
#pragma acc parallel loop collapse(2) present(src[0:W*H], dst[0:W*H], wt, scale)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    float s = 0.0f;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            if (y + dy >= 0 && y + dy < H && x + dx >= 0 && x + dx < W)
                                s += wt[(dy + 1) * 3 + (dx + 1)] * src[(y + dy) * W + (x + dx)];
                    dst[y * W + x] = s * scale;
                }
#pragma acc parallel loop collapse(2) present(dst[0:W*H], wt) reduction(+:total)
            for (int y = 1; y < H - 1; y++)
                for (int x = 1; x < W - 1; x++) {
                    float s = 0.0f;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            s += wt[(dy + 1) * 3 + (dx + 1)] * dst[(y + dy) * W + (x + dx)];
                    total += (long)s;
                }
#pragma acc parallel num_gangs(1) present(scale)
            {
                scale = scale + 1.0f;
            }
#pragma acc update host(scale)
            printf("pass %d total %ld scale %.1f\n", r, total, scale);
        }
    }
    printf("device %.1f total %ld scale %.1f\n", checksum(out), total, scale);
    return 0;
}
