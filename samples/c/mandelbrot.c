// Exercises: an ASCII-art Mandelbrot set (64x24 characters, up to 200
// iterations per point) using double arithmetic, character selection by
// iteration count, and a total iteration checksum.
#include <stdio.h>

int main(void) {
    const char *shades = " .:-=+*#%@";
    const int W = 64, H = 24, MAXIT = 200;
    long total = 0;
    for (int row = 0; row < H; row++) {
        double ci = -1.2 + 2.4 * row / (H - 1);
        for (int col = 0; col < W; col++) {
            double cr = -2.1 + 2.7 * col / (W - 1);
            double zr = 0, zi = 0;
            int it = 0;
            while (it < MAXIT && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                it++;
            }
            total += it;
            putchar(it == MAXIT ? '@' : shades[it % 9]);
        }
        putchar('\n');
    }
    printf("total iterations %ld\n", total);
    return 0;
}
