/* A 5 x 5 blur of a grey image, written with one-dimensional index arithmetic.
 *
 * Benchmark suite of issue 15: the image in a flat heap array indexed `img[(y + dy) * W + (x + dx)]`,
 * the weights in a small array, two nested `dy`/`dx` loops inside a `parallel loop collapse(2)`
 * over the interior, repeated REPS times with the output fed back. -DN=... sets the image side,
 * -DREPS=... the passes.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1536
#endif
#define W N
#define H N
#ifndef REPS
#define REPS 4
#endif

int main(void)
{
    float *img = malloc(sizeof(float) * W * H);
    float *out = malloc(sizeof(float) * W * H);
    float weight[25];
    if (!img || !out) {
        fprintf(stderr, "blur: out of memory\n");
        return 1;
    }
    float wsum = 0.0f;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            float w = (float)((3 - abs(dy)) * (3 - abs(dx)));
            weight[(dy + 2) * 5 + (dx + 2)] = w;
            wsum += w;
        }
    for (int i = 0; i < 25; i++)
        weight[i] /= wsum;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            img[y * W + x] = (float)((x * 3 + y * 5) % 256);
            out[y * W + x] = img[y * W + x];
        }

#pragma acc data copy(img[0:W*H], out[0:W*H]) copyin(weight)
    for (int r = 0; r < REPS; r++) {
#pragma acc parallel loop collapse(2)
        for (int y = 2; y < H - 2; y++)
            for (int x = 2; x < W - 2; x++) {
                float s = 0.0f;
                for (int dy = -2; dy <= 2; dy++)
                    for (int dx = -2; dx <= 2; dx++)
                        s += weight[(dy + 2) * 5 + (dx + 2)] * img[(y + dy) * W + (x + dx)];
                out[y * W + x] = s;
            }
        float *t = img;
        img = out;
        out = t;
    }

    double sum = 0.0;
    for (int i = 0; i < W * H; i++)
        sum += img[i];
    printf("blur %dx%d passes=%d checksum=%.6f centre=%.6f\n", W, H, REPS, sum,
           img[(H / 2) * W + W / 2]);
    free(img);
    free(out);
    return 0;
}
