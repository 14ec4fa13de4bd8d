// Issue 15 (native engine, compile share): a counted loop's entry checks test the accesses of
// an unrolled window `img[(y + dy) * w + (x + dx)]` only at the corners of the box the window's
// constants span (jit/src/apart.rs, boxes): the row part `(y + dy) * w` reads no counter of the
// `x` loop and is computed exactly and tested at the corners; every other access is implied.
// Windows here: 5 x 5 and 3 x 3 over a row-major image with a constant and a variable row
// length, walked along rows and along columns (the counter in the row part), mirrored (the
// address falls as a constant grows), through a pointer to rows (`A[y + dy][x + dx]`), a 3 x 3 x 3
// volume (three leaves), a star stencil (no corner accesses: tested as before), the weights read
// at constant indices (`w[7]`), stores of a 2 x 2 block, and windows that leave the image on one
// side only at some rows, guarded. Every result must be gcc's.
#include <stdio.h>
#include <stdlib.h>

#define W 37
#define H 29

static float img[H * W], out[H * W], wt[25];

static void reset(void)
{
    for (int i = 0; i < H * W; i++) {
        img[i] = (float)((i * 7 + 3) % 101) / 8.0f;
        out[i] = -1.0f;
    }
}

static double sum(const float *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * (double)((i % 13) + 1);
    return s;
}

/* A 5 x 5 window along rows, constant row length. */
static void blur5(float *o, const float *a)
{
    for (int y = 2; y < H - 2; y++)
        for (int x = 2; x < W - 2; x++) {
            float s = 0.0f;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++)
                    s += wt[(dy + 2) * 5 + (dx + 2)] * a[(y + dy) * W + (x + dx)];
            o[y * W + x] = s;
        }
}

/* A 3 x 3 window whose row length is a parameter (the row part's factor a variable). */
static void blur3(float *o, const float *a, int w, int h)
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += a[(y + dy) * w + (x + dx)] * (float)(dy + 2) * (float)(dx + 3);
            o[y * w + x] = s;
        }
}

/* The same window walked down the columns: the counter is in the row part, the column part
   `x + dx` reads no counter of the inner loop. */
static void blur3_columns(float *o, const float *a, int w, int h)
{
    for (int x = 1; x < w - 1; x++)
        for (int y = 1; y < h - 1; y++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += a[(y + dy) * w + (x + dx)] * (float)(3 * dy + dx + 5);
            o[y * w + x] = s;
        }
}

/* Mirrored: the address falls as the constants grow. */
static void mirrored(float *o, const float *a)
{
    for (int y = 2; y < H - 2; y++)
        for (int x = 2; x < W - 2; x++) {
            float s = 0.0f;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += a[(H - 1 - (y + dy)) * W + (W - 1 - (x + dx))] * (float)(dy - dx);
            o[y * W + x] = s;
        }
}

/* Through a pointer to rows of a two-dimensional array. */
static void rows(float (*o)[W], float (*a)[W])
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += a[y + dy][x + dx] * (float)(dx * dx + dy + 2);
            o[y][x] = s;
        }
}

/* A star: no access at the box's corners, so every access keeps its own test. */
static void star(float *o, const float *a)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++)
            o[y * W + x] = a[(y - 1) * W + (x + 0)] + a[(y + 1) * W + (x + 0)] + a[(y + 0) * W + (x - 1)] +
                           a[(y + 0) * W + (x + 1)] - 4.0f * a[(y + 0) * W + (x + 0)];
}

/* Stores of a 2 x 2 block per iteration (a box of stores, stride two elements). */
static void upsample(float *o, const float *a, int w2)
{
    for (int y = 0; y < H / 2; y++)
        for (int x = 0; x < W / 2; x++)
            for (int dy = 0; dy <= 1; dy++)
                for (int dx = 0; dx <= 1; dx++)
                    o[(2 * y + dy) * w2 + (2 * x + dx)] = a[y * W + x] + (float)(dy * 2 + dx);
}

/* Windows that leave the image near its edges, guarded: the loop covers every pixel. */
static void guarded(float *o, const float *a)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (y + dy >= 0 && y + dy < H && x + dx >= 0 && x + dx < W)
                        s += a[(y + dy) * W + (x + dx)];
            o[y * W + x] = s;
        }
}

/* A 3 x 3 mean, run in place below (the window reads what the loop writes). */
static void mean3(float *o, const float *a, int w, int h)
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += a[(y + dy) * w + (x + dx)];
            o[y * w + x] = s / 9.0f;
        }
}

#define D 21
static float vol[D * D * D], vout[D * D * D];

/* A 3 x 3 x 3 volume: three leaves, eight corners. */
static void blur_volume(void)
{
    for (int z = 1; z < D - 1; z++)
        for (int y = 1; y < D - 1; y++)
            for (int x = 1; x < D - 1; x++) {
                float s = 0.0f;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            s += vol[((z + dz) * D + (y + dy)) * D + (x + dx)] * (float)(dz + 2 * dy + 4 * dx + 8);
                vout[(z * D + y) * D + x] = s;
            }
}

int main(void)
{
    for (int i = 0; i < 25; i++)
        wt[i] = (float)(i % 7 + 1) / 16.0f;
    for (int i = 0; i < D * D * D; i++)
        vol[i] = (float)((i * 5) % 17);

    reset();
    blur5(out, img);
    printf("blur5 %.4f\n", sum(out, H * W));
    reset();
    blur3(out, img, W, H);
    printf("blur3 %.4f\n", sum(out, H * W));
    reset();
    blur3(out, img, 11, 17);
    printf("blur3 narrow %.4f\n", sum(out, H * W));
    reset();
    blur3_columns(out, img, W, H);
    printf("blur3 columns %.4f\n", sum(out, H * W));
    reset();
    mirrored(out, img);
    printf("mirrored %.4f\n", sum(out, H * W));
    reset();
    rows((float (*)[W])out, (float (*)[W])img);
    printf("rows %.4f\n", sum(out, H * W));
    reset();
    star(out, img);
    printf("star %.4f\n", sum(out, H * W));
    reset();
    upsample(out, img, W);
    printf("upsample %.4f\n", sum(out, H * W));
    reset();
    guarded(out, img);
    printf("guarded %.4f\n", sum(out, H * W));
    /* In place: the window reads what the loop writes (the lanes' tests fail). */
    reset();
    mean3(img, img, W, H);
    printf("mean3 in place %.4f\n", sum(img, H * W));
    blur_volume();
    printf("volume %.4f\n", sum(vout, D * D * D));

    /* The same 5 x 5 window in a kernel. */
    reset();
#pragma acc parallel loop collapse(2) copyin(img, wt) copy(out)
    for (int y = 2; y < H - 2; y++)
        for (int x = 2; x < W - 2; x++) {
            float s = 0.0f;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++)
                    s += wt[(dy + 2) * 5 + (dx + 2)] * img[(y + dy) * W + (x + dx)];
            out[y * W + x] = s;
        }
    printf("kernel %.4f\n", sum(out, H * W));
    return 0;
}
