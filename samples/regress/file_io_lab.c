// Issue 14 (file I/O): a lab-style program reads an ASCII (P2) and a binary (P5) PGM image with
// fopen/fscanf/fgetc/fseek/fread/ftell/feof and a text matrix with fscanf, and runs kernels on
// them; under --sandbox with `--allow-read samples/regress/data` (a directory grants what is
// below it). Output as with gcc and glibc.
// accsim-flags: --sandbox --allow-read samples/regress/data
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int w, h, maxval; unsigned char *px; } image;

/* Skip blanks and `#` comment lines of a PGM header. */
static void skip_header_space(FILE *f) {
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (c == '#') {
            while ((c = fgetc(f)) != '\n' && c != EOF)
                ;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            fseek(f, -1, SEEK_CUR);
            return;
        }
    }
}

static int read_pgm(const char *path, image *img) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    char magic[3];
    if (fscanf(f, "%2s", magic) != 1 || magic[0] != 'P' || (magic[1] != '2' && magic[1] != '5')) {
        fprintf(stderr, "%s: not a PGM file\n", path);
        fclose(f);
        return -1;
    }
    skip_header_space(f);
    if (fscanf(f, "%d %d %d", &img->w, &img->h, &img->maxval) != 3) {
        fclose(f);
        return -1;
    }
    size_t n = (size_t)img->w * img->h;
    img->px = malloc(n);
    if (magic[1] == '5') {
        fgetc(f); /* the one whitespace byte before the raster */
        if (fread(img->px, 1, n, f) != n)
            fprintf(stderr, "%s: short raster\n", path);
    } else {
        for (size_t i = 0; i < n; i++) {
            int v;
            if (fscanf(f, "%d", &v) != 1)
                break;
            img->px[i] = (unsigned char)v;
        }
    }
    printf("%s: P%c %dx%d max %d, header+raster %ld bytes, eof %d\n", path, magic[1], img->w, img->h, img->maxval, ftell(f), feof(f) != 0);
    fclose(f);
    return 0;
}

int main(void) {
    const char *names[] = {"samples/regress/data/lab_image.pgm", "samples/regress/data/lab_image_raw.pgm"};
    for (int k = 0; k < 2; k++) {
        image img;
        if (read_pgm(names[k], &img) != 0)
            return 1;
        int w = img.w, h = img.h;
        unsigned char *in = img.px;
        unsigned char *edge = malloc((size_t)w * h);
        long hist[4] = {0, 0, 0, 0};
        #pragma acc parallel loop collapse(2) copyin(in[0:w*h]) copyout(edge[0:w*h])
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int gx = (x > 0 && x < w - 1) ? in[y * w + x + 1] - in[y * w + x - 1] : 0;
                int gy = (y > 0 && y < h - 1) ? in[(y + 1) * w + x] - in[(y - 1) * w + x] : 0;
                int g = abs(gx) + abs(gy);
                edge[y * w + x] = (unsigned char)(g > 255 ? 255 : g);
            }
        for (int i = 0; i < w * h; i++)
            hist[edge[i] / 64]++;
        printf("edges: %ld %ld %ld %ld\n", hist[0], hist[1], hist[2], hist[3]);
        free(edge);
        free(in);
    }

    FILE *m = fopen("samples/regress/data/lab_matrix.txt", "r");
    if (!m) {
        perror("lab_matrix.txt");
        return 1;
    }
    int n, cols;
    if (fscanf(m, "%d %d", &n, &cols) != 2 || n != cols || n > 8)
        return 1;
    double a[64], x[8], y[8];
    for (int i = 0; i < n * n; i++)
        if (fscanf(m, "%lf", &a[i]) != 1)
            return 1;
    int more = fscanf(m, "%lf", &y[0]);
    printf("matrix %dx%d, another number: %d, eof %d\n", n, n, more, feof(m) != 0);
    fclose(m);
    for (int i = 0; i < n; i++)
        x[i] = i + 1;
    #pragma acc parallel loop copyin(a[0:n*n], x[0:n]) copyout(y[0:n])
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += a[i * n + j] * x[j];
        y[i] = s;
    }
    for (int i = 0; i < n; i++)
        printf("y[%d] = %g\n", i, y[i]);
    return 0;
}
