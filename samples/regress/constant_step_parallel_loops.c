// Issue 15 (native engine, compile share): partitioned loops whose increment is a constant
// (`i++`, `i--`, `i += 2`, `i = i + 3`), each iteration's counter computed from the iteration
// index and the step (core/src/kernel/schedule.rs). Every step must give the iterations the
// loop's own counter values (§2.7: the loop's iterations are those of the C loop), including a
// stride-2 window that must not run in unit-stride lanes, collapsed loops, loops counted down,
// and a step read from a variable beside them. The output is what gcc computes with the
// directives ignored. (Session 14 tried the constant step itself in place of the `__step` local,
// so that the native engine decides strides at translation; reverted, see RESULTS.md.)
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define M 40

static double sum_of(const float *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * (double)((i % 7) + 1);
    return s;
}

int main(void)
{
    float *a = malloc(sizeof(float) * N * M);
    float *b = malloc(sizeof(float) * N * M);
    float w[5] = { 1.0f, 2.0f, 3.0f, 2.0f, 1.0f };
    int step = 3;
    if (!a || !b)
        return 1;
    for (int i = 0; i < N * M; i++) {
        a[i] = (float)((i * 37) % 101);
        b[i] = 0.0f;
    }

#pragma acc data copyin(a[0:N*M], w) copy(b[0:N*M])
    {
        /* Unit step up: the window in lanes. */
#pragma acc parallel loop
        for (int i = 2; i < N - 2; i++) {
            float s = 0.0f;
            for (int d = -2; d <= 2; d++)
                s += w[d + 2] * a[i + d];
            b[i] = s;
        }
        /* Step 2: every other element, the others left as they are. */
#pragma acc parallel loop
        for (int i = N + 2; i < 2 * N - 2; i += 2) {
            float s = 0.0f;
            for (int d = -2; d <= 2; d++)
                s += w[d + 2] * a[i + d];
            b[i] = s;
        }
        /* Step 3 as `i = i + 3`, an inclusive bound. */
#pragma acc parallel loop
        for (int i = 2 * N; i <= 3 * N - 1; i = i + 3)
            b[i] = a[i] * 2.0f + 1.0f;
        /* Counted down by one and by two. */
#pragma acc parallel loop
        for (int i = 4 * N - 1; i >= 3 * N; i--)
            b[i] = a[i] - a[i - 1];
#pragma acc parallel loop
        for (int i = 5 * N - 1; i > 4 * N; i -= 2)
            b[i] = a[i] + 0.5f;
        /* Collapsed: rows by one, columns by two. */
#pragma acc parallel loop collapse(2)
        for (int r = 5; r < M; r++)
            for (int c = 1; c < N - 1; c += 2)
                b[r * N + c] = a[r * N + c - 1] + a[r * N + c + 1];
        /* A step read from a variable. */
#pragma acc parallel loop
        for (int i = 0; i < N; i += step)
            b[4 * N + i] += 100.0f;
    }

    printf("unit step: %.4f\n", sum_of(b, N));
    printf("step 2: %.4f\n", sum_of(b + N, N));
    printf("step 3: %.4f\n", sum_of(b + 2 * N, N));
    printf("down by 1: %.4f\n", sum_of(b + 3 * N, N));
    printf("down by 2 and variable step: %.4f\n", sum_of(b + 4 * N, N));
    printf("collapsed: %.4f\n", sum_of(b + 5 * N, (M - 5) * N));
    free(a);
    free(b);
    return 0;
}
