/* Loops whose value is accumulated by a nest of constant loops (core/src/exec/compile/vector.rs,
 * NestLoop): a 5x5 filter, a 3-tap filter in double, a long sum, a nest starting at
 * a non-zero bound, a filter written in place (overlapping: runs the ordinary way), and loops
 * that are too short or whose store index reads a nest variable. Output compared against gcc. */
#include <stdio.h>

#define N 40

static float img[N * N], out[N * N];
static double a[300], b[300];
static long ia[300], ib[300];

int main(void)
{
    float w[25];
    for (int i = 0; i < 25; i++)
        w[i] = (float)(i % 7 + 1) / 9.0f;
    for (int i = 0; i < N * N; i++)
        img[i] = (float)((i * 37) % 101) / 7.0f;
    for (int i = 2; i < N - 2; i++)
        for (int j = 2; j < N - 2; j++) {
            float s = 0.0f;
            for (int di = 0; di < 5; di++)
                for (int dj = 0; dj < 5; dj++)
                    s += w[di * 5 + dj] * img[(i + di - 2) * N + (j + dj - 2)];
            out[i * N + j] = s;
        }
    double sum = 0.0;
    for (int i = 0; i < N * N; i++)
        sum += out[i] * (double)(i % 5 + 1);
    printf("5x5 %.9e %.9e\n", sum, (double)out[17 * N + 23]);

    for (int i = 0; i < 300; i++)
        a[i] = (double)(i % 17) * 0.37 - 2.0;
    for (long i = 1; i < 299; i++) {
        double t = 1.5;
        for (long d = -1; d < 2; d++)
            t = t * 0.5 + a[i + d] / 3.0;
        b[i] = t;
    }
    printf("3tap %.17g %.17g %.17g\n", b[1], b[150], b[298]);

    for (int i = 0; i < 300; i++)
        ia[i] = (long)i * 123456789L;
    for (int i = 0; i < 290; i++) {
        long s = i;
        for (int d = 3; d < 10; d++)
            s += ia[i + d] * 7;
        ib[i] = s;
    }
    printf("long %ld %ld %ld\n", ib[0], ib[100], ib[289]);

    /* In place: each store reaches the loads of later iterations. */
    for (int i = 0; i < 296; i++) {
        double t = 0.0;
        for (int d = 0; d < 4; d++)
            t += a[i + d] * 0.25;
        a[i + 1] = t;
    }
    printf("inplace %.17g %.17g\n", a[1], a[296]);

    /* Too short to run by blocks, then a store index that reads a nest variable. */
    for (int i = 0; i < 5; i++) {
        long s = 1;
        for (int d = 0; d < 3; d++)
            s += ia[i + d] % 1000;
        ib[i] = s;
    }
    int d;
    for (int i = 0; i < 200; i++) {
        long s = 0;
        for (d = 0; d < 3; d++)
            s += ia[i + d] % 1000;
        ib[i + d] = s;
    }
    printf("short %ld %ld %ld\n", ib[0], ib[4], ib[202]);
    return 0;
}
