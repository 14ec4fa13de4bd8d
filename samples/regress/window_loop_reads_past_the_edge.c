// Issue 15 (native engine, loops of a few constant iterations unrolled): a 3x3 smoothing window
// `for (dy = -1; dy <= 1; dy++) for (dx = -1; dx <= 1; dx++)` whose rows start at 0 instead of 1
// reads one element before the image on the first pixel. The native engine unrolls the window
// and checks the row loop's accesses once at its entry; the check fails and the row runs with a
// check per access, so the fault is the interpreter's: the first window read, at its own line
// (C11 §6.5.6p8: a pointer before the array is undefined; accsim stops there). Before it, a
// correct pass over the inner pixels (window counters read after their loops, a window counted
// down, a window under a condition) prints what gcc prints.
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: window_loop_reads_past_the_edge.c:53:
// check: skip
#include <stdio.h>
#include <stdlib.h>

#define W 40
#define H 30

int main(void)
{
    float *img = malloc(sizeof(float) * W * H);
    float *out = malloc(sizeof(float) * W * H);
    if (!img || !out)
        return 1;
    for (int i = 0; i < W * H; i++)
        img[i] = (float)((i * 7) % 13);
    double total = 0.0;
    int last_dx = 0, last_dy = 0;
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = 0.0f;
            int dy, dx;
            for (dy = -1; dy <= 1; dy++)
                for (dx = 1; dx >= -1; dx--)
                    s += img[(y + dy) * W + (x + dx)];
            last_dx = dx;
            last_dy = dy;
            if (x % 2 == 0)
                for (int k = 0; k < 3; k++)
                    s -= 0.25f * img[y * W + x + k - 1];
            out[y * W + x] = s / 9.0f;
            total += out[y * W + x];
        }
    printf("inner pass %.4f, counters after the window %d %d\n", total, last_dy, last_dx);
    fflush(stdout);
    /* Off by one: y and x start at 0, so the first window reads img[-W-1]. */
    total = 0.0;
    for (int y = 0; y < H - 1; y++)
        for (int x = 0; x < W - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += img[(y + dy) * W + (x + dx)];
            out[y * W + x] = s / 9.0f;
            total += out[y * W + x];
        }
    printf("edge pass %.4f\n", total);
    free(img);
    free(out);
    return 0;
}
