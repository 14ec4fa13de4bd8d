/* Locals of main whose one assignment is a constant initialisation (`const int n = 600;`, `int w
 * = 37;`) are constants in the code of main's loops compiled on their own (issue 15,
 * jit/src/loop_entry.rs): a division and a remainder by them, rows of `double (*A)[n]`, a local
 * assigned twice (not a constant) and a negative one. Output equal to gcc's at -O0 and -O2. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const int n = 600;
    int w = 37;
    int twice = 5;
    long neg = -3;
    twice = 11;
    double (*A)[n] = malloc(sizeof(double) * n * n);
    long s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i][j] = (double)((i * j) % w) / n;
            s += (i + j) / twice + (i % 7) * neg;
        }
    double t = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t += A[i][j] * (j % n);
    printf("s=%ld t=%.6f a=%.6f\n", s, t, A[n - 1][n - 2]);
    free(A);
    return 0;
}
