// Issue 15 (native engine, compile share): a box of window accesses whose leaves each move every
// node that holds them one way, known at translation, is tested at two opposite corners only
// (jit/src/apart.rs, "Two corners"); a leaf under a product by a variable, or under the right
// side of a difference above its own node, keeps every corner. Windows here: rows walked up and
// down (`y + dy`, `y - dy`), columns mirrored (`x - dx`), a leaf times a negative constant, a
// leaf under `R - (y + dy)` (all four corners), a 3 x 3 x 3 volume mirrored in one leaf, the
// same windows with a variable row length, and windows whose rows reach the image's first and
// last rows exactly. Every result must be gcc's.
#include <stdio.h>

#define W 23
#define H 19
#define D 7

static float img[H * W], out[H * W];
static float vol[D * H * W], vout[D * H * W];

static void reset(void)
{
    for (int i = 0; i < H * W; i++) {
        img[i] = (float)((i * 11 + 5) % 97) / 4.0f;
        out[i] = -1.0f;
    }
    for (int i = 0; i < D * H * W; i++) {
        vol[i] = (float)((i * 13 + 1) % 89) / 8.0f;
        vout[i] = -1.0f;
    }
}

static double sum(const float *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * (double)((i % 7) + 1);
    return s;
}

/* Rows down, columns mirrored: dy moves the address up, dx down. */
static void mirrored(float *o, const float *a)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += (float)(dy * 3 + dx + 5) * a[(y - dy) * W + (x - dx)];
            o[y * W + x] = s;
        }
}

/* A leaf times a negative constant: the row offset falls as dy grows. */
static void negative_factor(float *o, const float *a)
{
    for (int y = 2; y < H - 2; y++)
        for (int x = 2; x < W - 2; x++) {
            float s = 0.0f;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++)
                    s += a[y * W + dy * -W + x + dx] * (float)(dx + 3);
            o[y * W + x] = s;
        }
}

/* The row leaf under the right side of a difference: every corner is tested. */
static void reflected(float *o, const float *a)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += a[(H - 1 - (y + dy)) * W + (x + dx)];
            o[y * W + x] = s;
        }
}

/* A variable row length: a product by a value of unknown sign keeps every corner. */
static void variable_rows(float *o, const float *a, int w, int h)
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += a[(y - dy) * w + (x + dx)] * 0.5f;
            o[y * w + x] = s;
        }
}

/* A 3 x 3 x 3 volume, its planes mirrored. */
static void volume(float *o, const float *a)
{
    for (int z = 1; z < D - 1; z++)
        for (int y = 1; y < H - 1; y++)
            for (int x = 1; x < W - 1; x++) {
                float s = 0.0f;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            s += a[((z - dz) * H + (y + dy)) * W + (x + dx)];
                o[(z * H + y) * W + x] = s;
            }
}

int main(void)
{
    reset();
    mirrored(out, img);
    printf("mirrored %.4f\n", sum(out, H * W));
    reset();
    negative_factor(out, img);
    printf("negative factor %.4f\n", sum(out, H * W));
    reset();
    reflected(out, img);
    printf("reflected %.4f\n", sum(out, H * W));
    for (int w = 3; w <= W; w += 5) {
        reset();
        variable_rows(out, img, w, H * W / w);
        printf("variable rows %d %.4f\n", w, sum(out, H * W));
    }
    reset();
    volume(vout, vol);
    printf("volume %.4f\n", sum(vout, D * H * W));
    /* The same windows in a parallel loop. */
    reset();
#pragma acc parallel loop copyin(img) copy(out)
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += (float)(dy - dx + 4) * img[(y - dy) * W + (x - dx)];
            out[y * W + x] = s;
        }
    printf("parallel mirrored %.4f\n", sum(out, H * W));
    return 0;
}
